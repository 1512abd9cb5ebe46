import { describe, expect, it } from 'vitest';
import type { TaskBundle } from '../bundle/index.ts';
import { applyResidual, deserializeResidual, diffBundles, ResidualError, serializeResidual } from './residual.ts';

const file = (path: string, text: string | Buffer, executable = false) => ({
  path,
  content: Buffer.isBuffer(text) ? text : Buffer.from(text),
  executable,
});

const parent: TaskBundle = {
  name: 't',
  files: [file('a.txt', 'a'), file('b.sh', 'echo b', true), file('c.bin', Buffer.from([0, 1, 2]))],
};
const child: TaskBundle = {
  name: 't',
  files: [file('a.txt', 'A'), file('b.sh', 'echo b', false), file('d/new.txt', 'new')],
};

describe('residuals', () => {
  it('diffs adds, content and mode changes, and deletes, and applies back to the child', () => {
    const residual = diffBundles(parent, child);
    expect(residual.changes.map((c) => `${c.op} ${c.path}`)).toEqual(['modify a.txt', 'modify b.sh', 'delete c.bin', 'add d/new.txt']);
    expect(applyResidual(parent, residual)).toEqual(child);
  });

  it('is empty between identical bundles', () => {
    expect(diffBundles(parent, parent).changes).toEqual([]);
  });

  it('round-trips through its stored JSON form, binary included', () => {
    const residual = diffBundles(child, parent);
    const stored = JSON.parse(JSON.stringify(serializeResidual(residual)));
    expect(stored.find((c: { path: string }) => c.path === 'c.bin').encoding).toBe('base64');
    expect(applyResidual(child, deserializeResidual(stored))).toEqual(parent);
  });

  it('refuses paths that escape the task and changes that do not fit the parent', () => {
    const escape = { changes: [{ op: 'add' as const, path: '../x', content: Buffer.from(''), executable: false }] };
    expect(() => applyResidual(parent, escape)).toThrow(ResidualError);
    expect(() => applyResidual(parent, { changes: [{ op: 'delete', path: 'missing.txt' }] })).toThrow(/no such file/);
    const clash = { changes: [{ op: 'add' as const, path: 'a.txt', content: Buffer.from(''), executable: false }] };
    expect(() => applyResidual(parent, clash)).toThrow(/already has it/);
  });
});
