// `envolve env import PATH`: one task directory, every task under a directory
// (a directory is a task when it holds task.toml), or a .tar/.tar.gz of tasks.
// Each task is checked and stored on its own: a bad task gets its own errors
// and stores nothing, and never stops the others.

import { lstat, readdir } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { ResourceCeilings } from '../config/index.ts';
import type { PrismaClient } from '../db/index.ts';
import { bundleFile, type TaskBundle } from '../bundle/index.ts';
import { contentHash, METADATA_SIDECAR } from './content-hash.ts';
import type { ImportLimits } from './import-limits.ts';
import { formatProblem, hasErrors, taskError, taskWarning, type TaskProblem } from './problems.ts';
import { readArchive } from './read-archive.ts';
import { readTaskDir } from './read-task-dir.ts';
import { parseSidecar } from './sidecar.ts';
import { registryTaskDirs } from './dataset.ts';
import { harborWarnings } from './harbor-warnings.ts';
import { getVersion, storeBundle, type EnvironmentMetadata } from './store.ts';
import { ORACLE_FILE, validateBundle } from './validate-bundle.ts';

export interface ImportOptions {
  limits?: Partial<ImportLimits>;
  ceilings?: ResourceCeilings; // the resource ceilings import warns against; default: the deployment's ENVOLVE_MAX_*
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

// What an import of a collection did: each task's result, the folders in it that are not tasks
// (reported, never silently skipped), and one summary line.
export interface ImportReport {
  results: TaskImportResult[];
  notTasks: string[];
  summary: string; // e.g. "15 imported, 4 refused, 1 folder is not a task"
}

export async function importPath(db: PrismaClient, path: string, options: ImportOptions = {}): Promise<TaskImportResult[]> {
  return (await importCollection(db, path, options)).results;
}

export async function importCollection(db: PrismaClient, path: string, options: ImportOptions = {}): Promise<ImportReport> {
  const target = resolve(path);
  const info = await lstat(target).catch(() => null);
  if (!info) throw new Error(`cannot import ${path}: no such file or directory`);
  if (info.isFile() && target.endsWith('.json')) return importRegistry(db, target, options);
  if (info.isFile()) return report(await importArchive(db, target, options), []);
  if (!info.isDirectory()) throw new Error(`cannot import ${path}: not a directory or a .tar/.tar.gz archive`);

  const { taskDirs, notTasks } = (await looksLikeTask(target)) ? { taskDirs: [target], notTasks: [] } : await findTaskDirs(target);
  if (taskDirs.length === 0) {
    throw new Error(`no task found under ${path} (a task directory holds task.toml)${notTasks.length ? `; not tasks: ${notTasks.join(', ')}` : ''}`);
  }
  return report(await importDirs(db, taskDirs, options), notTasks);
}

// The bundles of the tasks in a directory (one task, a collection, a dataset), read, not stored.
export async function readTasksAt(path: string): Promise<TaskBundle[]> {
  const target = resolve(path);
  const dirs = (await looksLikeTask(target)) ? [target] : (await findTaskDirs(target)).taskDirs;
  return Promise.all(dirs.map(async (dir) => (await readTaskDir(dir)).bundle));
}

export function summaryLine(results: TaskImportResult[], notTasks: string[]): string {
  const imported = results.filter((r) => r.ok).length;
  const parts = [`${imported} imported`, `${results.length - imported} refused`];
  if (notTasks.length > 0) parts.push(`${notTasks.length} ${notTasks.length === 1 ? 'folder is' : 'folders are'} not a task`);
  return parts.join(', ');
}

// A Harbor registry file (a dataset export's registry.json): the local tasks it names.
async function importRegistry(db: PrismaClient, file: string, options: ImportOptions): Promise<ImportReport> {
  const { dirs, refused } = await registryTaskDirs(file);
  const results = await importDirs(db, dirs, options);
  return report([...results, ...refused.map((r) => failed(r.name, file, [r.reason]))], []);
}

function report(results: TaskImportResult[], notTasks: string[]): ImportReport {
  return { results, notTasks, summary: summaryLine(results, notTasks) };
}

async function importDirs(db: PrismaClient, taskDirs: string[], options: ImportOptions): Promise<TaskImportResult[]> {
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
    results.push(
      failed(
        basename(file),
        file,
        strayProblems.map((p) => `entry outside any task: ${formatProblem(p)}`),
      ),
    );
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
  const problems = [...readProblems, ...validateBundle(harborBundle, options.limits, options.ceilings), ...harborWarnings(harborBundle, options.ceilings)];

  let metadata = seedMetadata();
  if (sidecarFile) {
    const parsed = parseSidecar(sidecarFile.content);
    if (parsed.ok) {
      metadata = parsed.sidecar.metadata;
      const id = hasErrors(problems) ? null : contentHash(harborBundle);
      if (id && parsed.sidecar.versionId && parsed.sidecar.versionId !== id) {
        problems.push(
          taskWarning(METADATA_SIDECAR, `the task changed since it was exported as version ${parsed.sidecar.versionId}; its Envolve metadata was kept`),
        );
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
  return namesLookLikeTask(new Set(await readdir(dir)));
}

function namesLookLikeTask(names: Set<string>): boolean {
  return names.has('task.toml') || names.has('instruction.md') || (names.has('environment') && names.has('tests'));
}

// The task directories under root, and the topmost folders that hold no task although their
// parent's collection does (a README folder, a task missing all of Harbor's parts).
async function findTaskDirs(root: string): Promise<{ taskDirs: string[]; notTasks: string[] }> {
  const found: string[] = [];
  const visited: string[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.shift() as string;
    const entries = await readdir(dir, { withFileTypes: true });
    if (dir !== root && namesLookLikeTask(new Set(entries.map((e) => e.name)))) {
      found.push(dir);
      continue;
    }
    if (dir !== root) visited.push(dir);
    // Dirent.isDirectory() is false for symlinks, so links are never followed.
    for (const entry of entries) {
      if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) pending.push(join(dir, entry.name));
    }
  }
  const holdsTask = (dir: string) => dir === root || found.some((task) => task.startsWith(`${dir}/`));
  const notTasks = visited.filter((dir) => !holdsTask(dir) && holdsTask(dirname(dir)));
  return { taskDirs: found.sort(), notTasks: notTasks.map((dir) => relative(root, dir)).sort() };
}

function failed(name: string, location: string, errors: string[]): TaskImportResult {
  return { name, location, ok: false, alreadyStored: false, hasOracle: false, errors, warnings: [] };
}
