// Reads a .tar or .tar.gz holding one task (task.toml at the archive root) or
// several (each directory with a task.toml is a task). Nothing is extracted to
// disk: entries are checked and kept in memory, so '..', absolute names and
// link entries are reported per task and can never write outside anything.

import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { extract, type Header } from 'tar-stream';
import type { BundleFile } from '../bundle/index.ts';
import { formatBytes, resolveLimits, type ImportLimits } from './import-limits.ts';
import { comparePaths, unsafePathReason } from './paths.ts';
import { taskError, type TaskProblem } from './problems.ts';
import type { ReadTaskResult } from './read-task-dir.ts';

export interface ArchiveContents {
  tasks: ReadTaskResult[];
  // Problems in entries that belong to no task, e.g. '../evil' beside the tasks.
  strayProblems: TaskProblem[];
}

interface ArchiveEntry {
  rawName: string;
  segments: string[]; // name split on '/', without empty and '.' segments
  safePath: string | null; // set when the name is a safe relative path
  problem: string | null; // an unsafe name or entry type
  oversizeBytes: number | null; // set for a file over the per-file limit
  file: BundleFile | null;
}

const ARCHIVE_SUFFIX = /\.(tar\.gz|tgz|tar)$/i;

export async function readArchive(file: string, limitOverrides?: Partial<ImportLimits>): Promise<ArchiveContents> {
  const limits = resolveLimits(limitOverrides);
  const entries = await readEntries(file, limits);
  const roots = taskRoots(entries);
  const archiveName = basename(file).replace(ARCHIVE_SUFFIX, '') || 'task';
  const tasks = roots.map((root) => ({
    root,
    result: { bundle: { name: root === '' ? archiveName : root.split('/').pop()!, files: [] as BundleFile[] }, problems: [] as TaskProblem[] },
    bytes: 0,
    seen: new Set<string>(),
  }));
  const strayProblems: TaskProblem[] = [];

  for (const entry of entries) {
    const owner = tasks.find((t) => isUnder(entry.segments, t.root));
    if (!owner) {
      // Loose files beside the tasks are ignored, but a hostile entry is still reported.
      if (entry.problem) strayProblems.push(taskError(entry.rawName, entry.problem));
      continue;
    }
    const { result } = owner;
    const relPath = entry.safePath === null ? entry.rawName : relativeTo(entry.safePath, owner.root);
    if (entry.problem) {
      result.problems.push(taskError(relPath, entry.problem));
      continue;
    }
    if (entry.oversizeBytes !== null) {
      const message = `file is ${formatBytes(entry.oversizeBytes)}, over the ${formatBytes(limits.maxFileBytes)} per-file limit`;
      result.problems.push(taskError(relPath, message));
      continue;
    }
    if (!entry.file) continue;
    if (owner.seen.has(relPath)) {
      result.problems.push(taskError(relPath, 'duplicate entry in archive'));
      continue;
    }
    owner.seen.add(relPath);
    if (owner.seen.size > limits.maxFilesPerTask) {
      result.problems.push(taskError('', `task has more than ${limits.maxFilesPerTask} entries`));
      continue;
    }
    owner.bytes += entry.file.content.length;
    if (owner.bytes > limits.maxTaskBytes) {
      result.problems.push(taskError('', `task is over the ${formatBytes(limits.maxTaskBytes)} per-task limit`));
      continue;
    }
    result.bundle.files.push({ ...entry.file, path: relPath });
  }

  for (const { result } of tasks) {
    result.bundle.files.sort((a, b) => comparePaths(a.path, b.path));
    result.problems = dedupe(result.problems);
  }
  return { tasks: tasks.map((t) => t.result), strayProblems };
}

async function readEntries(file: string, limits: ImportLimits): Promise<ArchiveEntry[]> {
  const source: Readable[] = [createReadStream(file)];
  if (await isGzip(file)) source.push(createGunzip());
  const tar = extract();
  pipeline([...source, tar], () => {
    // Errors surface through the iteration below, which owns the failure.
  });

  const entries: ArchiveEntry[] = [];
  let totalBytes = 0;
  try {
    for await (const stream of tar) {
      const header = stream.header;
      const entry = describeEntry(header);
      const size = header.size ?? 0;
      totalBytes += size;
      if (totalBytes > limits.maxArchiveBytes) {
        tar.destroy();
        throw new Error(`${file}: archive holds more than ${formatBytes(limits.maxArchiveBytes)} of files`);
      }
      const isFile = entry.problem === null && isFileType(header);
      if (isFile && size > limits.maxFileBytes) entry.oversizeBytes = size;
      const wantContent = isFile && size <= limits.maxFileBytes;
      const chunks: Buffer[] = [];
      for await (const chunk of stream) if (wantContent) chunks.push(chunk as Buffer);
      if (wantContent && entry.safePath !== null) {
        entry.file = { path: entry.safePath, content: Buffer.concat(chunks), executable: ((header.mode ?? 0) & 0o100) !== 0 };
      }
      entries.push(entry);
    }
  } catch (err) {
    if (err instanceof Error && /tar header|Unexpected end/i.test(err.message)) {
      throw new Error(`${file}: not a readable tar archive (${err.message})`, { cause: err });
    }
    throw err;
  }
  return entries;
}

function describeEntry(header: Header): ArchiveEntry {
  const rawName = header.name;
  const segments = rawName.split('/').filter((s) => s !== '' && s !== '.');
  const entry: ArchiveEntry = { rawName, segments, safePath: null, problem: null, oversizeBytes: null, file: null };
  const candidate = segments.join('/');
  if (rawName.startsWith('/')) entry.problem = 'absolute path in archive';
  else entry.problem = candidate === '' ? null : unsafePathReason(candidate);
  if (entry.problem === null) entry.safePath = candidate;
  if (entry.problem !== null) return entry;

  switch (header.type) {
    case 'file':
    case 'contiguous-file':
    case 'directory':
      return entry;
    case 'symlink':
      entry.problem = `symbolic link entry (to '${header.linkname ?? ''}') is not allowed`;
      return entry;
    case 'link':
      entry.problem = `hard link entry (to '${header.linkname ?? ''}') is not allowed`;
      return entry;
    default:
      entry.problem = `unsupported entry type '${header.type}'`;
      return entry;
  }
}

function isFileType(header: Header): boolean {
  return header.type === 'file' || header.type === 'contiguous-file';
}

// A task root is the directory of a task.toml; a task inside another task is
// part of the outer one, matching how a directory walk treats it.
function taskRoots(entries: ArchiveEntry[]): string[] {
  const roots = entries
    .filter((e) => e.file !== null && e.segments.at(-1) === 'task.toml')
    .map((e) => e.segments.slice(0, -1).join('/'))
    .sort((a, b) => a.length - b.length);
  const outer: string[] = [];
  for (const root of roots) {
    if (!outer.some((o) => isUnder(root === '' ? [] : root.split('/'), o))) outer.push(root);
  }
  return outer.sort(comparePaths);
}

function isUnder(segments: string[], root: string): boolean {
  if (root === '') return true;
  const rootSegments = root.split('/');
  return rootSegments.every((s, i) => segments[i] === s);
}

function relativeTo(path: string, root: string): string {
  return root === '' ? path : path.slice(root.length + 1);
}

function dedupe(problems: TaskProblem[]): TaskProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}
