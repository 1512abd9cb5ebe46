// Builders for task directories, bundles and tar archives used by lib/env tests,
// including deliberately malicious ones.

import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import type { TaskBundle } from '../../lib/bundle/bundle.ts';
import { comparePaths } from '../../lib/env/paths.ts';

export type FileSpec = string | Buffer | { content: string | Buffer; executable: boolean };
export type TaskFiles = Record<string, FileSpec>;

export function validTaskFiles(): TaskFiles {
  return {
    'task.toml': 'version = "1.0"\n\n[metadata]\ndifficulty = "easy"\n\n[verifier]\ntimeout_sec = 60\n',
    'instruction.md': 'Write hello to /app/out.txt.\n',
    'environment/Dockerfile': 'FROM envolve/base:bookworm\nWORKDIR /app\n',
    'solution/solve.sh': { content: '#!/bin/bash\necho hello > /app/out.txt\n', executable: true },
    'tests/test.sh': {
      content: '#!/bin/bash\nif grep -qx hello /app/out.txt; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n',
      executable: true,
    },
  };
}

export function bundleOf(files: TaskFiles, name = 'task'): TaskBundle {
  return {
    name,
    files: Object.entries(files)
      .map(([path, spec]) => ({ path, ...normalize(spec) }))
      .sort((a, b) => comparePaths(a.path, b.path)),
  };
}

export async function writeTask(dir: string, files: TaskFiles): Promise<string> {
  for (const [path, spec] of Object.entries(files)) {
    const { content, executable } = normalize(spec);
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
    await chmod(target, executable ? 0o755 : 0o644);
  }
  return dir;
}

export interface TarEntry {
  name: string;
  content?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink' | 'link';
  linkname?: string;
  mode?: number;
}

export async function writeTar(file: string, entries: TarEntry[], gzip = false): Promise<string> {
  const tar = pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    tar.on('data', (chunk) => chunks.push(chunk as Buffer));
    tar.on('end', resolve);
    tar.on('error', reject);
  });
  for (const entry of entries) {
    const type = entry.type ?? 'file';
    const content = type === 'file' ? Buffer.from(entry.content ?? '') : undefined;
    await new Promise<void>((resolve, reject) => {
      const header = { name: entry.name, type, linkname: entry.linkname, mode: entry.mode ?? (type === 'directory' ? 0o755 : 0o644) };
      const callback = (err?: Error | null) => (err ? reject(err) : resolve());
      if (content) tar.entry({ ...header, size: content.length }, content, callback);
      else tar.entry(header, callback);
    });
  }
  tar.finalize();
  await done;
  const data = Buffer.concat(chunks);
  await writeFile(file, gzip ? gzipSync(data) : data);
  return file;
}

export function tarEntriesOf(files: TaskFiles, prefix = ''): TarEntry[] {
  return Object.entries(files).map(([path, spec]) => {
    const { content, executable } = normalize(spec);
    return { name: `${prefix}${path}`, content, mode: executable ? 0o755 : 0o644 };
  });
}

export async function withTempDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'envolve-env-test-'));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function normalize(spec: FileSpec): { content: Buffer; executable: boolean } {
  if (typeof spec === 'string' || Buffer.isBuffer(spec)) return { content: Buffer.from(spec), executable: false };
  return { content: Buffer.from(spec.content), executable: spec.executable };
}
