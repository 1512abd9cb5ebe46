// A Harbor dataset out: one task directory per environment version (what `harbor run
// --dataset-path` runs) and registry.json in Harbor's registry format (lib/env/dataset.ts reads it
// back). It lives beside the servability rule (servable.ts) because a training export is what a
// trainer is served: a version the rule refuses (flagged, held out, rejected in review or
// superseded) is refused here with the same reason. An evaluation export may carry held-out
// versions, which are what evaluation is for; every other reason still refuses.
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Db } from '../db/index.ts';
import { REGISTRY_FILE, registrySchema, type DatasetSpec, writeTaskDir, getVersion, loadBundle } from '../env/index.ts';
import { InvalidInputError, NotFoundError, RefusedError } from '../errors/index.ts';
import { refusalOf, servabilityFacts, type ServabilityFacts, type Unservable } from './servable.ts';

export type DatasetPurpose = 'training' | 'evaluation';

export interface DatasetExportRequest {
  name: string;
  version?: string; // default "1.0"
  description?: string;
  versionIds: string[]; // e.g. lineages' released frontiers (lineageFrontierVersions) and chosen versions
  purpose?: DatasetPurpose; // default training
}

export interface DatasetExportResult {
  dir: string;
  registryPath: string;
  dataset: DatasetSpec;
  tasks: Array<{ name: string; versionId: string; path: string }>;
}

export async function exportDataset(db: Db, outDir: string, req: DatasetExportRequest): Promise<DatasetExportResult> {
  const versionIds = [...new Set(req.versionIds)];
  if (versionIds.length === 0) throw new InvalidInputError('nothing to export: give lineages or versions');
  await refuseUnservable(db, versionIds, req.purpose ?? 'training');

  const dir = resolve(outDir);
  const tasks: DatasetExportResult['tasks'] = [];
  const used = new Set<string>();
  for (const versionId of versionIds) {
    const version = (await getVersion(db, versionId))!;
    const name = used.has(version.name) ? `${version.name}-${versionId.slice(0, 8)}` : version.name;
    used.add(name);
    const sidecar = { versionId, name: version.name, source: version.source, metadata: version.metadata };
    await writeTaskDir(await loadBundle(db, versionId), join(dir, name), sidecar);
    tasks.push({ name, versionId, path: name });
  }
  const dataset: DatasetSpec = {
    name: req.name,
    version: req.version ?? '1.0',
    description: req.description ?? `Exported by Envolve: ${tasks.length} environment version(s)`,
    tasks: tasks.map((t) => ({ name: t.name, path: t.path })),
    metrics: [],
  };
  const registryPath = join(dir, REGISTRY_FILE);
  await writeFile(registryPath, `${JSON.stringify(registrySchema.parse([dataset]), null, 2)}\n`, { flag: 'wx' });
  return { dir, registryPath, dataset, tasks };
}

/** Why this version may not leave in an export of this purpose, or null when it may. */
export function exportRefusal(facts: ServabilityFacts, purpose: DatasetPurpose): Unservable | null {
  return refusalOf(purpose === 'evaluation' ? { ...facts, heldOutSet: null } : facts);
}

// Every version is asked before anything is written, so a refused export leaves no directory.
async function refuseUnservable(db: Db, versionIds: string[], purpose: DatasetPurpose): Promise<void> {
  const facts = await servabilityFacts(db, versionIds);
  const missing = versionIds.filter((id) => !facts.has(id));
  if (missing.length) throw new NotFoundError(`environment version(s) not found: ${missing.join(', ')}`, { details: { versionIds: missing } });
  const refused = versionIds.flatMap((versionId) => {
    const refusal = exportRefusal(facts.get(versionId)!, purpose);
    return refusal ? [{ versionId, kind: refusal.kind, message: refusal.message }] : [];
  });
  if (refused.length === 0) return;
  const kinds = [...new Set(refused.map((r) => r.kind))];
  throw new RefusedError(`refusing to export: ${refused.map((r) => r.message).join('; ')}`, {
    // One reason names itself; several are told apart in details.
    code: kinds.length === 1 ? kinds[0] : 'not_servable',
    details: { purpose, refused },
  });
}
