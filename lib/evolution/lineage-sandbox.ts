// The sandbox every use on a lineage's behalf goes through: its builds use the lineage's
// base-image mapping and build mirrors, its trials and checks the lineage's runtime. A version's work (validation,
// backtests, calibration re-scores) runs under the lineage the version belongs to.
import type { Db } from '../db/index.ts';
import {
  withBaseImages,
  withBuildMirrors,
  configuredSandboxRuntime,
  environmentRuntime,
  resolveSandboxRuntime,
  withSandboxRuntime,
  type ResolvedSandboxRuntime,
  type SandboxRuntime,
} from '../sandbox/index.ts';
import type { Sandbox } from '../sandbox/index.ts';
import type { LineageSettings } from './config.ts';
import { settingsOf, type LoadedLineage } from './lineage.ts';

export type LineageSandboxSettings = Pick<LineageSettings, 'baseImages' | 'sandboxRuntime' | 'buildMirrors'>;

export function lineageSandbox(sandbox: Sandbox, settings: LineageSandboxSettings): Sandbox {
  const mapped = withBuildMirrors(withBaseImages(sandbox, settings.baseImages), settings.buildMirrors);
  return settings.sandboxRuntime ? withSandboxRuntime(mapped, settings.sandboxRuntime) : mapped;
}

/** The runtime the lineage's trials run under unless an environment requires runsc, and why. */
export function lineageSandboxRuntime(settings: Pick<LineageSettings, 'sandboxRuntime'>): ResolvedSandboxRuntime {
  return resolveSandboxRuntime({ deployment: configuredSandboxRuntime(), lineage: settings.sandboxRuntime });
}

/** The lineage a version belongs to: the one that evolved it, else the oldest it seeds; null outside every lineage. */
export async function lineageOfVersion(db: Db, versionId: string): Promise<LoadedLineage | null> {
  const row =
    (await db.generation.findFirst({ where: { versionId }, orderBy: { createdAt: 'asc' }, select: { lineage: true } }))?.lineage ??
    (await db.lineage.findFirst({ where: { seedVersionId: versionId }, orderBy: { createdAt: 'asc' } }));
  return row ? { row, settings: settingsOf(row) } : null;
}

/** The sandbox a version's work runs in: its lineage's, or the deployment's own outside any lineage. */
export async function versionSandbox(db: Db, sandbox: Sandbox, versionId: string): Promise<Sandbox> {
  const lineage = await lineageOfVersion(db, versionId);
  return lineage ? lineageSandbox(sandbox, lineage.settings) : sandbox;
}

export interface VersionSandboxRuntime extends ResolvedSandboxRuntime {
  lineageId: string | null; // the lineage whose choice applies, if the version belongs to one
  required: SandboxRuntime | null; // what the version's own task.toml asks for
}

/** What the version's trials run under, and why: its lineage's choice or the deployment's, raised by its task.toml. */
export async function versionSandboxRuntime(db: Db, versionId: string, taskToml: string): Promise<VersionSandboxRuntime> {
  const lineage = await lineageOfVersion(db, versionId);
  const required = environmentRuntime([{ path: 'task.toml', content: Buffer.from(taskToml), executable: false }]) ?? null;
  const resolved = resolveSandboxRuntime({
    deployment: configuredSandboxRuntime(),
    lineage: lineage?.settings.sandboxRuntime,
    environment: required ?? undefined,
  });
  return { ...resolved, lineageId: lineage?.row.id ?? null, required };
}
