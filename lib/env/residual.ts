// A residual is the patch from a parent environment version to a candidate: the file changes a
// modifier made. Diffing and applying are exact inverses: apply(parent, diff(parent, child)) = child.
import type { BundleFile, TaskBundle } from '../bundle/index.ts';
import { METADATA_SIDECAR } from './content-hash.ts';
import { comparePaths, unsafePathReason } from './paths.ts';
import { RefusedError } from '../errors/index.ts';

// One file change: the patch from the parent version to the candidate.
export type FileChange = { op: 'add' | 'modify'; path: string; content: Buffer; executable: boolean } | { op: 'delete'; path: string };

export interface Residual {
  changes: FileChange[];
}

// Envolve's sidecar (envolve.json) is metadata, not task content: never part of a residual.
export function diffBundles(parent: TaskBundle, child: TaskBundle): Residual {
  const taskFiles = (bundle: TaskBundle) => bundle.files.filter((f) => f.path !== METADATA_SIDECAR);
  const before = new Map(taskFiles(parent).map((f) => [f.path, f]));
  const after = new Map(taskFiles(child).map((f) => [f.path, f]));
  const changes: FileChange[] = [];
  for (const file of after.values()) {
    const old = before.get(file.path);
    if (!old) changes.push({ op: 'add', path: file.path, content: file.content, executable: file.executable });
    else if (!old.content.equals(file.content) || old.executable !== file.executable) {
      changes.push({ op: 'modify', path: file.path, content: file.content, executable: file.executable });
    }
  }
  for (const file of before.values()) if (!after.has(file.path)) changes.push({ op: 'delete', path: file.path });
  changes.sort((a, b) => comparePaths(a.path, b.path));
  return { changes };
}

export class ResidualError extends RefusedError {
  constructor(message: string) {
    super(message, { code: 'residual_refused' });
  }
}

// Applies a residual strictly: adding an existing file, or modifying or deleting a missing one,
// means the modifier worked from a different parent, and is refused rather than guessed at.
export function applyResidual(parent: TaskBundle, residual: Residual, name = parent.name): TaskBundle {
  const files = new Map<string, BundleFile>(parent.files.map((f) => [f.path, f]));
  for (const change of residual.changes) {
    const unsafe = unsafePathReason(change.path);
    if (unsafe) throw new ResidualError(`${change.path}: ${unsafe}`);
    const exists = files.has(change.path);
    if (change.op === 'add' && exists) throw new ResidualError(`${change.path}: added, but the parent already has it`);
    if (change.op !== 'add' && !exists) throw new ResidualError(`${change.path}: ${change.op}, but the parent has no such file`);
    if (change.op === 'delete') files.delete(change.path);
    else files.set(change.path, { path: change.path, content: change.content, executable: change.executable });
  }
  return { name, files: [...files.values()].sort((a, b) => comparePaths(a.path, b.path)) };
}

// The residual as JSON for storage and the dashboard: text as UTF-8, anything else as base64.
export interface StoredFileChange {
  op: FileChange['op'];
  path: string;
  executable?: boolean;
  encoding?: 'utf8' | 'base64';
  content?: string;
  size?: number;
}

export function serializeResidual(residual: Residual): StoredFileChange[] {
  return residual.changes.map((change) => {
    if (change.op === 'delete') return { op: 'delete', path: change.path };
    const text = change.content.toString('utf8');
    const isText = !change.content.includes(0) && Buffer.from(text, 'utf8').equals(change.content);
    return {
      op: change.op,
      path: change.path,
      executable: change.executable,
      encoding: isText ? 'utf8' : 'base64',
      content: isText ? text : change.content.toString('base64'),
      size: change.content.length,
    };
  });
}

export function deserializeResidual(stored: StoredFileChange[]): Residual {
  return {
    changes: stored.map((c): FileChange => {
      if (c.op === 'delete') return { op: 'delete', path: c.path };
      const content = Buffer.from(c.content ?? '', c.encoding === 'base64' ? 'base64' : 'utf8');
      return { op: c.op, path: c.path, content, executable: Boolean(c.executable) };
    }),
  };
}
