// Harbor datasets in, and the registry format both directions share. A dataset directory holds
// one task directory per environment version (what `harbor run --dataset-path` runs) and
// registry.json, Harbor's registry format: a list of datasets {name, version, description,
// tasks: [{name, git_url?, git_commit_id?, path}], metrics}; a task without git_url is a local
// path, here relative to the registry file. The export is lib/scheduler/dataset-export.ts: what
// may leave is the servability rule's question, which lives there.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { InvalidInputError } from '../errors/index.ts';

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

// The local task directories a registry file names, resolved against the file's directory; a
// task fetched from git cannot be imported offline and says so.
export async function registryTaskDirs(file: string): Promise<{ dirs: string[]; refused: Array<{ name: string; reason: string }> }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new InvalidInputError(`cannot read ${file} as a Harbor registry: ${(err as Error).message}`, { cause: err });
  }
  const registry = registrySchema.safeParse(parsed);
  if (!registry.success) {
    throw new InvalidInputError(`${file} is not a Harbor registry: ${registry.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
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
