// Harbor datasets out and in. A dataset directory holds one task directory per environment
// version (what `harbor run --dataset-path` runs) and registry.json, Harbor's registry format:
// a list of datasets {name, version, description, tasks: [{name, git_url?, git_commit_id?, path}],
// metrics}; a task without git_url is a local path, here relative to the registry file.
// A training export carries only what the trainer may be served: never a held-out version, a
// version of a held-out lineage, or a version flagged as compromised.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { writeTaskDir } from './export.ts';
import { getVersion, loadBundle } from './store.ts';

export const REGISTRY_FILE = 'registry.json';

const registryTaskSchema = z.object({
  name: z.string().min(1),
  git_url: z.string().nullable().optional(),
  git_commit_id: z.string().nullable().optional(),
  path: z.string().min(1),
});

const datasetSpecSchema = z.object({
  name: z.string().min(1),
  version: z.string().min(1),
  description: z.string(),
  tasks: z.array(registryTaskSchema),
  metrics: z.array(z.object({ type: z.string(), kwargs: z.record(z.string(), z.unknown()).optional() })).default([]),
});

export const registrySchema = z.array(datasetSpecSchema);
export type DatasetSpec = z.infer<typeof datasetSpecSchema>;

export interface DatasetExportRequest {
  name: string;
  version?: string; // default "1.0"
  description?: string;
  versionIds: string[]; // e.g. lineages' released frontiers (lineageFrontierVersions) and chosen versions
  // An evaluation export may carry held-out versions (that is what they are for); a training
  // export, the default, never does. Compromised versions leave in neither.
  purpose?: 'training' | 'evaluation';
}

export interface DatasetExportResult {
  dir: string;
  registryPath: string;
  dataset: DatasetSpec;
  tasks: Array<{ name: string; versionId: string; path: string }>;
}

export async function exportDataset(db: Db, outDir: string, req: DatasetExportRequest): Promise<DatasetExportResult> {
  const versionIds = [...new Set(req.versionIds)];
  if (versionIds.length === 0) throw new Error('nothing to export: give lineages or versions');
  await refuseWithheld(db, versionIds, req);

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

// Held-out versions include those of held-out lineages (seed or generation).
async function refuseWithheld(db: Db, versionIds: string[], req: DatasetExportRequest): Promise<void> {
  const versions = await db.environmentVersion.findMany({ where: { id: { in: versionIds } }, select: { id: true, heldOutSet: true, compromisedAt: true } });
  const missing = versionIds.filter((id) => !versions.some((v) => v.id === id));
  if (missing.length) throw new Error(`environment version(s) not found: ${missing.join(', ')}`);
  const heldOutLineages = await db.lineage.findMany({
    where: { heldOutSet: { not: null }, OR: [{ seedVersionId: { in: versionIds } }, { generations: { some: { versionId: { in: versionIds } } } }] },
    select: { heldOutSet: true, seedVersionId: true, generations: { select: { versionId: true } } },
  });
  const reasons: string[] = [];
  for (const v of versions) {
    if (v.compromisedAt) reasons.push(`${v.id.slice(0, 12)} is flagged as compromised`);
    if (req.purpose === 'evaluation') continue;
    if (v.heldOutSet) reasons.push(`${v.id.slice(0, 12)} is held out (set ${v.heldOutSet})`);
    const lineage = heldOutLineages.find((l) => l.seedVersionId === v.id || l.generations.some((g) => g.versionId === v.id));
    if (lineage) reasons.push(`${v.id.slice(0, 12)} belongs to a held-out lineage (set ${lineage.heldOutSet})`);
  }
  if (reasons.length)
    throw new Error(`refusing to export: ${reasons.join('; ')}${req.purpose === 'evaluation' ? '' : ' (a training export never carries these)'}`);
}

// The local task directories a registry file names, resolved against the file's directory; a
// task fetched from git cannot be imported offline and says so.
export async function registryTaskDirs(file: string): Promise<{ dirs: string[]; refused: Array<{ name: string; reason: string }> }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read ${file} as a Harbor registry: ${(err as Error).message}`, { cause: err });
  }
  const registry = registrySchema.safeParse(parsed);
  if (!registry.success) {
    throw new Error(`${file} is not a Harbor registry: ${registry.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const dirs: string[] = [];
  const refused: Array<{ name: string; reason: string }> = [];
  for (const dataset of registry.data) {
    for (const task of dataset.tasks) {
      if (task.git_url)
        refused.push({ name: task.name, reason: `${dataset.name}@${dataset.version}: fetched from ${task.git_url}; clone it and import the directory` });
      else dirs.push(resolve(dirname(file), task.path));
    }
  }
  return { dirs, refused };
}
