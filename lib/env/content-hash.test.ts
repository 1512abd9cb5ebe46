import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bundleOf, validTaskFiles } from '../../test/env/task-fixtures.ts';
import { contentHash } from './content-hash.ts';

describe('contentHash', () => {
  const files = validTaskFiles();

  it('is a stable sha256 hex digest', () => {
    const hash = contentHash(bundleOf(files));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(contentHash(bundleOf(files))).toBe(hash);
  });

  it('pins the documented encoding', () => {
    const bundle = bundleOf({ 'a.txt': 'A', 'b.sh': { content: 'B', executable: true } });
    // sha256("envolve-task-v1\na.txt\0-" + sha256("A") + "\nb.sh\0x" + sha256("B") + "\n")
    const h = (s: string) => createHash('sha256').update(s).digest('hex');
    const expected = h(`envolve-task-v1\na.txt\u0000-${h('A')}\nb.sh\u0000x${h('B')}\n`);
    expect(contentHash(bundle)).toBe(expected);
  });

  it('does not depend on file order or the bundle name', () => {
    const bundle = bundleOf(files);
    const reversed = { name: 'other-name', files: [...bundle.files].reverse() };
    expect(contentHash(reversed)).toBe(contentHash(bundle));
  });

  it('changes with content, path and the executable bit', () => {
    const base = contentHash(bundleOf(files));
    expect(contentHash(bundleOf({ ...files, 'instruction.md': 'Something else.\n' }))).not.toBe(base);
    expect(contentHash(bundleOf({ ...files, 'solution/solve.sh': '#!/bin/bash\necho hello > /app/out.txt\n' }))).not.toBe(base);
    const { 'instruction.md': instruction, ...rest } = files;
    expect(contentHash(bundleOf({ ...rest, 'INSTRUCTION.md': instruction! }))).not.toBe(base);
  });

  it('excludes the envolve.json sidecar, but only at the task root', () => {
    const base = contentHash(bundleOf(files));
    expect(contentHash(bundleOf({ ...files, 'envolve.json': '{"generation":3}' }))).toBe(base);
    expect(contentHash(bundleOf({ ...files, 'tests/envolve.json': '{}' }))).not.toBe(base);
  });

  it('refuses a bundle with two files at one path', () => {
    const bundle = bundleOf(files);
    expect(() => contentHash({ ...bundle, files: [...bundle.files, bundle.files[0]!] })).toThrow(/two files/);
  });
});
