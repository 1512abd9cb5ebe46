// envolve.json: Envolve's metadata (lineage, generation, scenario–skill
// sequence, difficulty) written beside an exported Harbor task. Harbor ignores
// the extra file, the content hash excludes it, and import reads it back.

import type { EnvironmentMetadata } from './store.ts';

export const SIDECAR_FORMAT = 'envolve-metadata/1';

// Where the version was released and by which policy's group ("simulated" for a demo lineage),
// so a trainer holding the tarball can tell a simulated release from a real one.
export interface SidecarRelease {
  lineageId: string;
  generation: number;
  released_by: string | null; // null: released before releases recorded their policy
}

export interface EnvolveSidecar {
  format: typeof SIDECAR_FORMAT;
  versionId: string; // the version this directory was exported from
  name: string;
  source: string;
  metadata: EnvironmentMetadata;
  releases?: SidecarRelease[];
}

export function renderSidecar(sidecar: Omit<EnvolveSidecar, 'format'>): string {
  return `${JSON.stringify({ format: SIDECAR_FORMAT, ...sidecar }, null, 2)}\n`;
}

export type SidecarResult = { ok: true; sidecar: EnvolveSidecar } | { ok: false; error: string };

export function parseSidecar(content: Buffer): SidecarResult {
  let value: unknown;
  try {
    value = JSON.parse(content.toString('utf8'));
  } catch (err) {
    return { ok: false, error: `not valid JSON (${(err as Error).message})` };
  }
  if (!isRecord(value) || value.format !== SIDECAR_FORMAT) {
    return { ok: false, error: `not an Envolve metadata file (expected "format": "${SIDECAR_FORMAT}")` };
  }
  if (!isRecord(value.metadata)) return { ok: false, error: '"metadata" must be an object' };
  return {
    ok: true,
    sidecar: {
      format: SIDECAR_FORMAT,
      versionId: typeof value.versionId === 'string' ? value.versionId : '',
      name: typeof value.name === 'string' ? value.name : '',
      source: typeof value.source === 'string' ? value.source : '',
      metadata: value.metadata,
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
