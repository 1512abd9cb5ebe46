// Residuals between two task bundles: the file changes that turn the parent into the child, and
// their application. Envolve's sidecar (envolve.json) is metadata, not task content: never diffed.
import type { BundleFile, TaskBundle } from '../../env/bundle.ts';
import { METADATA_SIDECAR } from '../../env/content-hash.ts';
import { comparePaths } from '../../env/paths.ts';
import type { FileChange, Residual } from '../types.ts';

export function diffBundles(parent: TaskBundle, child: TaskBundle): Residual {
  const before = new Map(parent.files.filter((f) => f.path !== METADATA_SIDECAR).map((f) => [f.path, f]));
  const after = new Map(child.files.filter((f) => f.path !== METADATA_SIDECAR).map((f) => [f.path, f]));
  const changes: FileChange[] = [];
  for (const [path, file] of after) {
    const old = before.get(path);
    if (!old) changes.push({ op: 'add', path, content: file.content, executable: file.executable });
    else if (!old.content.equals(file.content) || old.executable !== file.executable) {
      changes.push({ op: 'modify', path, content: file.content, executable: file.executable });
    }
  }
  for (const path of before.keys()) if (!after.has(path)) changes.push({ op: 'delete', path });
  return { changes: changes.sort((a, b) => comparePaths(a.path, b.path)) };
}

export function applyResidual(bundle: TaskBundle, residual: Residual): TaskBundle {
  const files = new Map<string, BundleFile>(bundle.files.map((f) => [f.path, f]));
  for (const change of residual.changes) {
    if (change.op === 'delete') {
      if (!files.delete(change.path)) throw new Error(`residual deletes ${change.path}, which the bundle does not have`);
    } else {
      if (change.op === 'add' && files.has(change.path)) throw new Error(`residual adds ${change.path}, which the bundle already has`);
      if (change.op === 'modify' && !files.has(change.path)) throw new Error(`residual modifies ${change.path}, which the bundle does not have`);
      files.set(change.path, { path: change.path, content: change.content, executable: change.executable });
    }
  }
  return { name: bundle.name, files: [...files.values()].sort((a, b) => comparePaths(a.path, b.path)) };
}
