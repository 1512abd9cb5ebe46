// A task bundle is a Harbor task directory held in memory: every file with its
// POSIX path relative to the task root. It is what the store hashes, what the
// sandbox copies into containers, and what export writes back to disk.

export interface BundleFile {
  path: string; // POSIX, relative, no '..' segments, no leading '/'
  content: Buffer;
  executable: boolean;
}

export interface TaskBundle {
  name: string; // the task directory's name
  files: BundleFile[]; // sorted by path
}

export function bundleFile(bundle: TaskBundle, path: string): BundleFile | undefined {
  return bundle.files.find((f) => f.path === path);
}

export function filesUnder(bundle: TaskBundle, dir: string): BundleFile[] {
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  return bundle.files.filter((f) => f.path.startsWith(prefix));
}
