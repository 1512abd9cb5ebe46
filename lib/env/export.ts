// Writes a stored environment version back to disk as a Harbor task directory
// that runs in Harbor unchanged, plus the envolve.json sidecar. Executable bits
// are restored; the target must be empty unless overwriting a task directory.

import { chmod, lstat, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { PrismaClient } from '../db/index.ts';
import type { TaskBundle } from '../bundle/index.ts';
import { METADATA_SIDECAR } from './content-hash.ts';
import { unsafePathReason } from './paths.ts';
import { renderSidecar, type EnvolveSidecar } from './sidecar.ts';
import { getVersion, loadBundle } from './store.ts';

export interface ExportOptions {
  // Replace the contents of a non-empty target, allowed only when it already
  // holds a task (task.toml), so a mistyped path cannot wipe an unrelated directory.
  overwrite?: boolean;
}

export interface ExportResult {
  dir: string;
  versionId: string;
  fileCount: number;
}

export async function exportVersion(db: PrismaClient, versionId: string, outDir: string, options: ExportOptions = {}): Promise<ExportResult> {
  const version = await getVersion(db, versionId);
  if (!version) throw new Error(`environment version ${versionId} not found`);
  const bundle = await loadBundle(db, versionId);
  const sidecar = { versionId, name: version.name, source: version.source, metadata: version.metadata };
  const dir = await writeTaskDir(bundle, outDir, sidecar, options);
  return { dir, versionId, fileCount: bundle.files.length };
}

export async function writeTaskDir(
  bundle: TaskBundle,
  outDir: string,
  sidecar: Omit<EnvolveSidecar, 'format'> | null,
  options: ExportOptions = {},
): Promise<string> {
  const root = resolve(outDir);
  for (const file of bundle.files) {
    const unsafe = unsafePathReason(file.path);
    if (unsafe) throw new Error(`refusing to write ${JSON.stringify(file.path)}: ${unsafe}`);
  }
  await prepareTarget(root, options);

  for (const file of bundle.files) {
    if (file.path === METADATA_SIDECAR) continue;
    const target = join(root, file.path);
    await mkdir(dirname(target), { recursive: true });
    const mode = file.executable ? 0o755 : 0o644;
    // 'wx' never follows or reuses an existing entry; chmod undoes the umask.
    await writeFile(target, file.content, { flag: 'wx', mode });
    await chmod(target, mode);
  }
  if (sidecar) await writeFile(join(root, METADATA_SIDECAR), renderSidecar(sidecar), { flag: 'wx', mode: 0o644 });
  return root;
}

async function prepareTarget(root: string, options: ExportOptions): Promise<void> {
  const info = await lstat(root).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (!info) {
    await mkdir(root, { recursive: true });
    return;
  }
  if (!info.isDirectory()) throw new Error(`cannot export to ${root}: it exists and is not a directory`);
  const entries = await readdir(root);
  if (entries.length === 0) return;
  if (!options.overwrite)
    throw new Error(
      `refusing to export into ${root}: the directory is not empty; only a task directory can be replaced, and only when overwriting is asked for`,
    );
  if (!entries.includes('task.toml')) {
    throw new Error(`refusing to overwrite ${root}: it is not empty and holds no task.toml, so it does not look like a task directory`);
  }
  for (const entry of entries) await rm(join(root, entry), { recursive: true, force: true });
}
