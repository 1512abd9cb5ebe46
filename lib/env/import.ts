// `envolve env import PATH`: one task directory, every task under a directory
// (a directory is a task when it holds task.toml), or a .tar/.tar.gz of tasks.
// Each task is checked and stored on its own: a bad task gets its own errors
// and stores nothing, and never stops the others.

import { lstat, readdir } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { PrismaClient } from '../db/generated/client.ts';
import { bundleFile, type TaskBundle } from './bundle.ts';
import { contentHash, METADATA_SIDECAR } from './content-hash.ts';
import type { ImportLimits } from './import-limits.ts';
import { formatProblem, hasErrors, taskError, taskWarning, type TaskProblem } from './problems.ts';
import { readArchive } from './read-archive.ts';
import { readTaskDir } from './read-task-dir.ts';
import { parseSidecar } from './sidecar.ts';
import { getVersion, storeBundle, type EnvironmentMetadata } from './store.ts';
import { ORACLE_FILE, validateBundle } from './validate-bundle.ts';

export interface ImportOptions {
  limits?: Partial<ImportLimits>;
}

export interface TaskImportResult {
  name: string;
  location: string; // the task directory, or archive path plus the task's place in it
  ok: boolean;
  versionId?: string;
  alreadyStored: boolean; // identical content was stored before; nothing new was written
  hasOracle: boolean;
  errors: string[];
  warnings: string[];
}

// Directories never searched for tasks: tool state, not task collections.
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

// Metadata of a task imported without an envolve.json: the root of a lineage.
export function seedMetadata(): EnvironmentMetadata {
  return { kind: 'seed', generation: 0, parents: [] };
}

export async function importPath(db: PrismaClient, path: string, options: ImportOptions = {}): Promise<TaskImportResult[]> {
  const target = resolve(path);
  const info = await lstat(target).catch(() => null);
  if (!info) throw new Error(`cannot import ${path}: no such file or directory`);
  if (info.isFile()) return importArchive(db, target, options);
  if (!info.isDirectory()) throw new Error(`cannot import ${path}: not a directory or a .tar/.tar.gz archive`);

  const taskDirs = (await looksLikeTask(target)) ? [target] : await findTaskDirs(target);
  if (taskDirs.length === 0) throw new Error(`no task found under ${path} (a task directory holds task.toml)`);
  const results: TaskImportResult[] = [];
  for (const dir of taskDirs) {
    try {
      const { bundle, problems } = await readTaskDir(dir, options.limits);
      results.push(await importBundle(db, bundle, problems, dir, options));
    } catch (err) {
      results.push(failed(basename(dir), dir, [(err as Error).message]));
    }
  }
  return results;
}

async function importArchive(db: PrismaClient, file: string, options: ImportOptions): Promise<TaskImportResult[]> {
  const { tasks, strayProblems } = await readArchive(file, options.limits);
  if (tasks.length === 0 && strayProblems.length === 0) {
    throw new Error(`no task found in ${file} (a task directory holds task.toml)`);
  }
  const results: TaskImportResult[] = [];
  if (strayProblems.length > 0) {
    results.push(failed(basename(file), file, strayProblems.map((p) => `entry outside any task: ${formatProblem(p)}`)));
  }
  for (const { bundle, problems } of tasks) {
    results.push(await importBundle(db, bundle, problems, `${file}:${bundle.name}`, options));
  }
  return results;
}

async function importBundle(
  db: PrismaClient,
  bundle: TaskBundle,
  readProblems: TaskProblem[],
  location: string,
  options: ImportOptions,
): Promise<TaskImportResult> {
  const sidecarFile = bundleFile(bundle, METADATA_SIDECAR);
  const harborBundle = { ...bundle, files: bundle.files.filter((f) => f.path !== METADATA_SIDECAR) };
  const problems = [...readProblems, ...validateBundle(harborBundle, options.limits)];

  let metadata = seedMetadata();
  if (sidecarFile) {
    const parsed = parseSidecar(sidecarFile.content);
    if (parsed.ok) {
      metadata = parsed.sidecar.metadata;
      const id = hasErrors(problems) ? null : contentHash(harborBundle);
      if (id && parsed.sidecar.versionId && parsed.sidecar.versionId !== id) {
        problems.push(taskWarning(METADATA_SIDECAR, `the task changed since it was exported as version ${parsed.sidecar.versionId}; its Envolve metadata was kept`));
      }
    } else {
      problems.push(taskError(METADATA_SIDECAR, parsed.error));
    }
  }

  const result: TaskImportResult = {
    name: bundle.name,
    location,
    ok: false,
    alreadyStored: false,
    hasOracle: bundleFile(harborBundle, ORACLE_FILE) !== undefined,
    errors: problems.filter((p) => p.severity === 'error').map(formatProblem),
    warnings: problems.filter((p) => p.severity === 'warning').map(formatProblem),
  };
  if (result.errors.length > 0) return result;

  try {
    result.alreadyStored = (await getVersion(db, contentHash(harborBundle))) !== null;
    result.versionId = await storeBundle(db, harborBundle, { source: 'import', metadata, limits: options.limits });
    result.ok = true;
  } catch (err) {
    result.errors.push((err as Error).message);
  }
  return result;
}

// A directory without task.toml but with Harbor's other parts is still taken
// as one task, so the user hears that task.toml is missing rather than "no task".
async function looksLikeTask(dir: string): Promise<boolean> {
  const names = new Set(await readdir(dir));
  return names.has('task.toml') || names.has('instruction.md') || (names.has('environment') && names.has('tests'));
}

async function findTaskDirs(root: string): Promise<string[]> {
  const found: string[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.shift() as string;
    const entries = await readdir(dir, { withFileTypes: true });
    if (dir !== root && entries.some((e) => e.isFile() && e.name === 'task.toml')) {
      found.push(dir);
      continue;
    }
    // Dirent.isDirectory() is false for symlinks, so links are never followed.
    for (const entry of entries) {
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) pending.push(join(dir, entry.name));
    }
  }
  return found.sort();
}

function failed(name: string, location: string, errors: string[]): TaskImportResult {
  return { name, location, ok: false, alreadyStored: false, hasOracle: false, errors, warnings: [] };
}
