// The content hash that names an environment version.
//
// Encoding (version 1), hashed with SHA-256 and written as lowercase hex:
//
//   "envolve-task-v1\n"
//   then, for every file except the root sidecar `envolve.json`, in byte-wise
//   order of the UTF-8 path:
//     <path as UTF-8> 0x00 <"x" if executable else "-"> <sha256(content) as 64 hex chars> "\n"
//
// A path cannot contain NUL and everything after it has a fixed width, so the
// encoding is unambiguous. Timestamps, owners and other mode bits are left out:
// only what a task means (names, contents, the executable bit) decides its id.
// `envolve.json` carries Envolve's own metadata, which must not change the id.

import { createHash } from 'node:crypto';
import type { BundleFile, TaskBundle } from '../bundle/index.ts';
import { comparePaths } from './paths.ts';

export const METADATA_SIDECAR = 'envolve.json';

const ENCODING_HEADER = 'envolve-task-v1\n';

export function sha256Hex(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}

export function hashedFiles(bundle: TaskBundle): BundleFile[] {
  return bundle.files.filter((f) => f.path !== METADATA_SIDECAR);
}

export function contentHash(bundle: TaskBundle): string {
  const files = [...hashedFiles(bundle)].sort((a, b) => comparePaths(a.path, b.path));
  const hash = createHash('sha256').update(ENCODING_HEADER);
  let previous: string | null = null;
  for (const file of files) {
    if (file.path === previous) throw new Error(`cannot hash a bundle with two files at ${file.path}`);
    previous = file.path;
    hash.update(Buffer.from(file.path, 'utf8'));
    hash.update(`\u0000${file.executable ? 'x' : '-'}${sha256Hex(file.content)}\n`);
  }
  return hash.digest('hex');
}
