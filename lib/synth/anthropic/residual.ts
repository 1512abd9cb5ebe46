// The modifier's write_residual answer turned into a Residual over the parent's files. Every
// edit is kept or the whole answer is refused with the reasons: dropping an edit silently would
// store a candidate that is not what the model wrote.
import type { BundleFile, TaskBundle } from '../../bundle/index.ts';
import { METADATA_SIDECAR, unsafePathReason } from '../../env/index.ts';
import type { FileChange, Residual } from '../types.ts';
import type { Interpretation } from './tool-client.ts';
import type { ToolInput } from './tools.ts';

type ChangeInput = ToolInput<'write_residual'>['changes'][number];

export function interpretResidual(input: ToolInput<'write_residual'>, parent: TaskBundle, shownInFull: ReadonlySet<string>): Interpretation<Residual> {
  const existing = new Map(parent.files.map((f) => [f.path, f]));
  const problems: string[] = [];
  const changes: FileChange[] = [];
  const seen = new Set<string>();
  input.changes.forEach((change, i) => {
    const result = seen.has(change.path) ? 'the path is edited twice' : fileChange(change, existing.get(change.path), shownInFull);
    seen.add(change.path);
    if (typeof result === 'string') problems.push(`changes[${i}] (${change.op} ${change.path}): ${result}`);
    else changes.push(result);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: { changes } };
}

// The change, or why it is refused.
function fileChange(change: ChangeInput, before: BundleFile | undefined, shownInFull: ReadonlySet<string>): FileChange | string {
  const unsafe = unsafePathReason(change.path);
  if (unsafe) return unsafe;
  if (change.path === METADATA_SIDECAR) return `${METADATA_SIDECAR} is Envolve's own metadata and cannot be edited`;
  if (change.op === 'delete') return before ? { op: 'delete', path: change.path } : 'no such file in the parent';
  if (change.content === undefined) return `content is required for ${change.op}`;
  if (change.op === 'add' && before) return 'the file already exists; use modify';
  if (change.op === 'modify' && !before) return 'no such file in the parent; use add';
  if (change.op === 'modify' && !shownInFull.has(change.path)) {
    return 'the file was shown only by size and digest (binary or too large), so it cannot be rewritten';
  }
  return {
    op: change.op,
    path: change.path,
    content: Buffer.from(change.content, 'utf8'),
    executable: change.executable ?? before?.executable ?? false,
  };
}
