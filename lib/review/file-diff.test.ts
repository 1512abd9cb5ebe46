import { describe, expect, it } from 'vitest';
import { diffLines, gapToReveal, MAX_EDIT_DISTANCE, splitLines, toHunks, type DiffLine } from './file-diff.ts';

// Both files are recoverable from a diff: the old one from context + deleted lines, the new
// one from context + added lines, each numbered consecutively.
function sides(lines: DiffLine[]) {
  const old = lines.filter((l) => l.kind !== 'add');
  const neu = lines.filter((l) => l.kind !== 'delete');
  expect(old.map((l) => l.oldNumber)).toEqual(old.map((_, i) => i + 1));
  expect(neu.map((l) => l.newNumber)).toEqual(neu.map((_, i) => i + 1));
  return { old: old.map((l) => l.text), new: neu.map((l) => l.text) };
}

function changes(lines: DiffLine[]): number {
  return lines.filter((l) => l.kind !== 'context').length;
}

describe('diffLines', () => {
  it('marks an inserted and a replaced line and keeps the rest as context', () => {
    const lines = diffLines('a\nb\nc\nd\n', 'a\nB\nc\nnew\nd\n');
    expect(lines.map((l) => `${l.kind[0]}${l.text}`)).toEqual(['ca', 'db', 'aB', 'cc', 'anew', 'cd']);
  });

  it('handles empty sides and a missing final newline', () => {
    expect(diffLines('', 'x\ny').map((l) => l.kind)).toEqual(['add', 'add']);
    expect(diffLines('x\n', '').map((l) => l.kind)).toEqual(['delete']);
    expect(diffLines('same\n', 'same\n').map((l) => l.kind)).toEqual(['context']);
    expect(splitLines('a\n\nb\n')).toEqual(['a', '', 'b']);
  });

  it('finds a shortest script on random edits and reconstructs both files', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const a = Array.from({ length: Math.floor(random() * 30) }, () => String.fromCharCode(97 + Math.floor(random() * 4)));
      const b = a.filter(() => random() > 0.2).flatMap((line) => (random() > 0.8 ? [line, 'z'] : [line]));
      const lines = diffLines(a.join('\n'), b.join('\n'));
      expect(sides(lines)).toEqual({ old: a, new: b });
      // b is a with deletions and insertions only, so the edit distance is at most the sum.
      expect(changes(lines)).toBeLessThanOrEqual(a.length - b.filter((l) => l !== 'z').length + b.filter((l) => l === 'z').length);
    }
  });

  it('falls back to a whole-file replacement past the edit-distance limit', () => {
    const a = Array.from({ length: MAX_EDIT_DISTANCE + 10 }, (_, i) => `old ${i}`).join('\n');
    const b = Array.from({ length: MAX_EDIT_DISTANCE + 10 }, (_, i) => `new ${i}`).join('\n');
    const lines = diffLines(a, b);
    expect(sides(lines)).toEqual({ old: splitLines(a), new: splitLines(b) });
    expect(lines.filter((l) => l.kind === 'context')).toHaveLength(0);
  });
});

describe('word-level highlights', () => {
  it('marks only the words that changed in a line edited in place', () => {
    const lines = diffLines('echo hello world > out.txt\n', 'echo hello there > out.txt\n');
    const [deleted, added] = lines;
    expect(deleted?.segments?.filter((s) => s.changed).map((s) => s.text)).toEqual(['world']);
    expect(added?.segments?.filter((s) => s.changed).map((s) => s.text)).toEqual(['there']);
    // The segments spell the whole line.
    expect(added?.segments?.map((s) => s.text).join('')).toBe(added?.text);
  });

  it('leaves unpaired and wholly different lines without word marks', () => {
    const lines = diffLines('alpha\n', 'beta gamma\nextra line\n');
    expect(lines.map((l) => l.segments)).toEqual([undefined, undefined, undefined]);
    expect(diffLines('', 'new\n')[0]?.segments).toBeUndefined();
  });
});

describe('toHunks', () => {
  it('keeps three lines of context around changes and counts what it skips', () => {
    const old = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const neu = old.map((l, i) => (i === 9 ? 'changed' : l));
    const { hunks, skippedAfter } = toHunks(diffLines(old.join('\n'), neu.join('\n')));
    expect(hunks).toHaveLength(1);
    expect(hunks[0]?.skippedBefore).toBe(6);
    expect(hunks[0]?.lines.map((l) => l.kind)).toEqual(['context', 'context', 'context', 'delete', 'add', 'context', 'context', 'context']);
    expect(skippedAfter).toBe(7);
  });

  it("gives each hunk its first line's index in the whole diff", () => {
    const old = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const neu = old.map((l, i) => (i === 4 || i === 24 ? `${l} changed` : l));
    const { hunks, skippedAfter } = toHunks(diffLines(old.join('\n'), neu.join('\n')));
    // Line 5 becomes a delete and an add at indexes 4 and 5; line 25 at 25 and 26 (one more line before it).
    expect(hunks.map((h) => [h.start, h.skippedBefore, h.lines.length])).toEqual([
      [1, 1, 8],
      [22, 13, 8],
    ]);
    expect(skippedAfter).toBe(2);
  });

  it('keeps revealed lines like context, joining hunks the unfolded lines connect', () => {
    const old = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const neu = old.map((l, i) => (i === 9 ? 'changed' : l));
    const lines = diffLines(old.join('\n'), neu.join('\n'));
    const first = toHunks(lines);
    const leading = gapToReveal(first.hunks[0]!.start, first.hunks[0]!.skippedBefore, true, 4);
    expect(leading).toEqual([2, 3, 4, 5]);
    const unfolded = toHunks(lines, 3, new Set(leading));
    expect(unfolded.hunks).toHaveLength(1);
    expect(unfolded.hunks[0]?.skippedBefore).toBe(2);
    expect(unfolded.hunks[0]?.lines[0]?.text).toBe('line 3');
    // The trailing fold unfolds downwards from the hunk above it.
    const trailing = gapToReveal(lines.length, first.skippedAfter, false, 4);
    expect(trailing).toEqual([14, 15, 16, 17]);
    expect(toHunks(lines, 3, new Set([...leading, ...trailing])).skippedAfter).toBe(3);
    // A fold smaller than a step unfolds whole, and then nothing is skipped.
    const all = [...gapToReveal(first.hunks[0]!.start, 6, true), ...gapToReveal(lines.length, 7, false)];
    expect(toHunks(lines, 3, new Set(all))).toMatchObject({ hunks: [{ skippedBefore: 0, start: 0 }], skippedAfter: 0 });
  });

  it('unfolds a fold between two hunks downwards from the hunk above', () => {
    const old = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    const neu = old.map((l, i) => (i === 2 || i === 37 ? `${l} changed` : l));
    const lines = diffLines(old.join('\n'), neu.join('\n'));
    const { hunks } = toHunks(lines);
    const second = hunks[1]!;
    const middle = gapToReveal(second.start, second.skippedBefore, false, 5);
    expect(middle[0]).toBe(hunks[0]!.start + hunks[0]!.lines.length);
    expect(toHunks(lines, 3, new Set(middle)).hunks[1]?.skippedBefore).toBe(second.skippedBefore - 5);
  });
});
