// A file's line diff for the residual view, from jsdiff (the `diff` package): lines matched by
// its Myers implementation, changed lines paired up and diffed again word by word so the view
// can mark the words that changed, then grouped into hunks with context. Past
// MAX_EDIT_DISTANCE an exact diff would cost O(D²) memory, so jsdiff gives up and the file is
// shown as a whole-file replacement instead.
import { diffArrays, diffWordsWithSpace } from 'diff';

export type DiffLineKind = 'context' | 'add' | 'delete';

/** A run of a changed line's text; `changed` marks the words the paired line does not have. */
export interface DiffSegment {
  text: string;
  changed: boolean;
}

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  oldNumber: number | null; // 1-based, null for added lines
  newNumber: number | null; // 1-based, null for deleted lines
  segments?: DiffSegment[]; // only on a changed line paired with one on the other side
}

export const MAX_EDIT_DISTANCE = 2_000;
// Word diffs of longer lines (minified code, data) mark nearly everything and cost the most.
const MAX_WORD_DIFF_CHARS = 2_000;

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop(); // a trailing newline ends the last line, it does not start another
  return lines;
}

export function diffLines(oldText: string, newText: string): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const changes = diffArrays(a, b, { maxEditLength: MAX_EDIT_DISTANCE }) ?? [
    { value: a, removed: true, added: false, count: a.length },
    { value: b, removed: false, added: true, count: b.length },
  ];
  const out: DiffLine[] = [];
  let oldNumber = 1;
  let newNumber = 1;
  let deletedRun: DiffLine[] = [];
  for (const change of changes) {
    if (change.removed) {
      deletedRun = change.value.map((text) => ({ kind: 'delete', text, oldNumber: oldNumber++, newNumber: null }));
      out.push(...deletedRun);
      continue;
    }
    if (change.added) {
      const added = change.value.map((text): DiffLine => ({ kind: 'add', text, oldNumber: null, newNumber: newNumber++ }));
      pairWords(deletedRun, added);
      out.push(...added);
    } else {
      for (const text of change.value) out.push({ kind: 'context', text, oldNumber: oldNumber++, newNumber: newNumber++ });
    }
    deletedRun = [];
  }
  return out;
}

// A block of deleted lines followed by a block of added ones is read as those lines edited in
// place: the i-th deleted line against the i-th added one.
function pairWords(deleted: DiffLine[], added: DiffLine[]): void {
  const pairs = Math.min(deleted.length, added.length);
  for (let i = 0; i < pairs; i++) {
    const before = deleted[i]!;
    const after = added[i]!;
    if (before.text.length > MAX_WORD_DIFF_CHARS || after.text.length > MAX_WORD_DIFF_CHARS) continue;
    const words = diffWordsWithSpace(before.text, after.text);
    // Lines with nothing in common are a replacement, not an edit: no word marks.
    if (!words.some((w) => !w.added && !w.removed && w.value.trim() !== '')) continue;
    before.segments = words.filter((w) => !w.added).map((w) => ({ text: w.value, changed: Boolean(w.removed) }));
    after.segments = words.filter((w) => !w.removed).map((w) => ({ text: w.value, changed: Boolean(w.added) }));
  }
}

// A run of changed lines with up to `context` unchanged lines either side; the lines between
// hunks are summarised by how many were skipped. `start` is the index of the hunk's first line in
// the whole diff, so a view can unfold the skipped lines before it. Lines in `revealed` (indexes)
// are kept like context: the page unfolds them on the reviewer's request.
export interface DiffHunk {
  skippedBefore: number;
  start: number;
  lines: DiffLine[];
}

export function toHunks(lines: DiffLine[], context = 3, revealed: ReadonlySet<number> = new Set()): { hunks: DiffHunk[]; skippedAfter: number } {
  const keep = lines.map((_, index) => revealed.has(index));
  lines.forEach((line, index) => {
    if (line.kind === 'context') return;
    for (let i = Math.max(0, index - context); i <= Math.min(lines.length - 1, index + context); i++) keep[i] = true;
  });
  const hunks: DiffHunk[] = [];
  let skipped = 0;
  let current: DiffHunk | null = null;
  lines.forEach((line, index) => {
    if (!keep[index]) {
      skipped++;
      current = null;
      return;
    }
    if (!current) {
      current = { skippedBefore: skipped, start: index, lines: [] };
      hunks.push(current);
      skipped = 0;
    }
    current.lines.push(line);
  });
  return { hunks, skippedAfter: skipped };
}

/** How many skipped lines one "show more" unfolds. */
export const EXPAND_STEP = 20;

/**
 * The line indexes one "show more" unfolds in the gap of `count` skipped lines ending before index
 * `end`: the lines nearest the change it leads to (the gap before the first hunk unfolds upwards
 * from it) or follows (every other gap unfolds downwards from the hunk above), at most EXPAND_STEP.
 */
export function gapToReveal(end: number, count: number, leading: boolean, step = EXPAND_STEP): number[] {
  const shown = Math.min(step, count);
  const from = leading ? end - shown : end - count;
  return Array.from({ length: shown }, (_, i) => from + i);
}
