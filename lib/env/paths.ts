// Path rules for files inside a task. A bundle path must name a file inside the
// task directory on every platform we write to, whoever produced the bundle
// (a directory walk, an archive, an evolution step or the database).

// Returns why `path` is not a safe bundle path, or null when it is.
export function unsafePathReason(path: string): string | null {
  if (path === '') return 'empty path';
  if (path.startsWith('/')) return 'absolute path';
  if (/^[A-Za-z]:/.test(path)) return 'drive-letter path';
  if (path.includes('\\')) return 'backslash in path';
  // Control characters make paths ambiguous in listings and logs.
  // eslint-disable-next-line no-control-regex -- finding control characters is the point of this check
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'control character in path';
  // U+FFFD is what a non-UTF-8 file name decodes to; the original name is lost.
  if (path.includes('\uFFFD')) return 'file name is not valid UTF-8';
  for (const segment of path.split('/')) {
    if (segment === '..') return "'..' segment escapes the task directory";
    if (segment === '.' || segment === '') return 'non-canonical path';
  }
  return null;
}

// Byte-wise order of UTF-8 paths: independent of locale and of JavaScript's
// UTF-16 string order, so every writer sorts bundles identically.
export function comparePaths(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
