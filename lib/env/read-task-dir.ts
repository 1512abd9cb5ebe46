// Reads a task directory from disk into a TaskBundle without trusting it:
// entries are examined with lstat and opened with O_NOFOLLOW, so a symlink is
// reported instead of followed, and sizes are checked before content is read.

import { constants, type Stats } from 'node:fs';
import { lstat, open, readdir, readlink, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { BundleFile, TaskBundle } from '../bundle/index.ts';
import { formatBytes, resolveLimits, type ImportLimits } from './import-limits.ts';
import { comparePaths, unsafePathReason } from './paths.ts';
import { taskError, type TaskProblem } from './problems.ts';

export interface ReadTaskResult {
  bundle: TaskBundle;
  problems: TaskProblem[];
}

export async function readTaskDir(dir: string, limitOverrides?: Partial<ImportLimits>): Promise<ReadTaskResult> {
  const limits = resolveLimits(limitOverrides);
  const root = resolve(dir);
  const rootStat = await stat(root);
  if (!rootStat.isDirectory()) throw new Error(`${dir} is not a directory`);

  const files: BundleFile[] = [];
  const problems: TaskProblem[] = [];
  let taskBytes = 0;
  let entries = 0;
  const pending = [''];

  walk: while (pending.length > 0) {
    const relDir = pending.pop() as string;
    const names = (await readdir(join(root, relDir))).sort(comparePaths);
    for (const name of names) {
      const relPath = relDir ? `${relDir}/${name}` : name;
      const absPath = join(root, relPath);
      if (++entries > limits.maxFilesPerTask) {
        problems.push(taskError('', `task has more than ${limits.maxFilesPerTask} entries`));
        break walk;
      }
      const unsafe = unsafePathReason(relPath);
      if (unsafe) {
        problems.push(taskError(relPath, unsafe));
        continue;
      }
      const info = await lstat(absPath);
      if (info.isDirectory()) {
        pending.push(relPath);
        continue;
      }
      if (info.isSymbolicLink()) {
        problems.push(taskError(relPath, await describeSymlink(root, absPath)));
        continue;
      }
      if (!info.isFile()) {
        problems.push(taskError(relPath, `not a regular file (${fileKind(info)})`));
        continue;
      }
      if (info.size > limits.maxFileBytes) {
        problems.push(taskError(relPath, `file is ${formatBytes(info.size)}, over the ${formatBytes(limits.maxFileBytes)} per-file limit`));
        continue;
      }
      if (taskBytes + info.size > limits.maxTaskBytes) {
        problems.push(taskError('', `task is over the ${formatBytes(limits.maxTaskBytes)} per-task limit`));
        break walk;
      }
      const file = await readRegularFile(absPath, relPath, limits.maxFileBytes);
      if ('problem' in file) {
        problems.push(file.problem);
        continue;
      }
      taskBytes += file.content.length;
      files.push(file);
    }
  }

  files.sort((a, b) => comparePaths(a.path, b.path));
  problems.sort((a, b) => comparePaths(a.path, b.path));
  return { bundle: { name: basename(root), files }, problems };
}

// Opens without following links and re-checks the opened file, so a file
// swapped for a symlink or grown after the lstat above is still caught.
async function readRegularFile(absPath: string, relPath: string, maxBytes: number): Promise<BundleFile | { problem: TaskProblem }> {
  const handle = await open(absPath, constants.O_RDONLY | constants.O_NOFOLLOW).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ELOOP') return null;
    throw err;
  });
  if (!handle) return { problem: taskError(relPath, 'symbolic link (links are not allowed in a task)') };
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { problem: taskError(relPath, `not a regular file (${fileKind(info)})`) };
    if (info.size > maxBytes) {
      return { problem: taskError(relPath, `file is ${formatBytes(info.size)}, over the ${formatBytes(maxBytes)} per-file limit`) };
    }
    const content = await handle.readFile();
    if (content.length > maxBytes) {
      return { problem: taskError(relPath, `file grew over the ${formatBytes(maxBytes)} per-file limit while reading`) };
    }
    return { path: relPath, content, executable: (info.mode & 0o100) !== 0 };
  } finally {
    await handle.close();
  }
}

async function describeSymlink(root: string, absPath: string): Promise<string> {
  const target = await readlink(absPath);
  const resolved = resolve(dirname(absPath), target);
  const fromRoot = relative(root, resolved);
  const escapes = fromRoot === '..' || fromRoot.startsWith('../') || isAbsolute(fromRoot);
  return escapes
    ? `symbolic link to '${target}' points outside the task directory`
    : `symbolic link to '${target}' (links are not allowed in a task; store a regular file)`;
}

function fileKind(info: Stats): string {
  if (info.isFIFO()) return 'named pipe';
  if (info.isSocket()) return 'socket';
  if (info.isCharacterDevice()) return 'character device';
  if (info.isBlockDevice()) return 'block device';
  if (info.isSymbolicLink()) return 'symbolic link';
  return 'special file';
}
