// A line diff (Myers' O(ND) algorithm) and its grouping into hunks with context, for the
// residual view. Common prefix and suffix are trimmed first: most edits touch a small part of
// a file. Past MAX_EDIT_DISTANCE the trace would cost O(D²) memory, so such files are shown as
// a whole-file replacement instead of an exact diff.
export type DiffLineKind = 'context' | 'add' | 'delete';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  oldNumber: number | null; // 1-based, null for added lines
  newNumber: number | null; // 1-based, null for deleted lines
}

export const MAX_EDIT_DISTANCE = 2_000;

export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop(); // a trailing newline ends the last line, it does not start another
  return lines;
}

export function diffLines(oldText: string, newText: string): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;

  const out: DiffLine[] = [];
  const context = (i: number, j: number) => out.push({ kind: 'context', text: a[i] ?? '', oldNumber: i + 1, newNumber: j + 1 });
  for (let i = 0; i < prefix; i++) context(i, i);
  const middleA = a.slice(prefix, a.length - suffix);
  const middleB = b.slice(prefix, b.length - suffix);
  const script = myers(middleA, middleB) ?? replaceAll(middleA.length, middleB.length);
  for (const op of script) {
    if (op.kind === 'context') context(prefix + op.i, prefix + op.j);
    else if (op.kind === 'delete') out.push({ kind: 'delete', text: middleA[op.i] ?? '', oldNumber: prefix + op.i + 1, newNumber: null });
    else out.push({ kind: 'add', text: middleB[op.j] ?? '', oldNumber: null, newNumber: prefix + op.j + 1 });
  }
  for (let k = suffix; k > 0; k--) context(a.length - k, b.length - k);
  return out;
}

interface EditOp {
  kind: DiffLineKind;
  i: number; // index into the old lines
  j: number; // index into the new lines
}

function replaceAll(n: number, m: number): EditOp[] {
  const ops: EditOp[] = [];
  for (let i = 0; i < n; i++) ops.push({ kind: 'delete', i, j: 0 });
  for (let j = 0; j < m; j++) ops.push({ kind: 'add', i: n, j });
  return ops;
}

// The shortest edit script from a to b, or null when it is longer than MAX_EDIT_DISTANCE.
function myers(a: string[], b: string[]): EditOp[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 1);
  // trace[d] holds v for diagonals -d..d as it was before step d: what the backtrack reads.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m);
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], n: number, m: number): EditOp[] {
  const ops: EditOp[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d] as Int32Array;
    const at = (k: number) => v[k + d] ?? 0;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ kind: 'context', i: x, j: y });
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: 'add', i: x, j: prevY });
      else ops.push({ kind: 'delete', i: prevX, j: y });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

// A run of changed lines with up to `context` unchanged lines either side; the lines between
// hunks are summarised by how many were skipped.
export interface DiffHunk {
  skippedBefore: number;
  lines: DiffLine[];
}

export function toHunks(lines: DiffLine[], context = 3): { hunks: DiffHunk[]; skippedAfter: number } {
  const keep = new Array<boolean>(lines.length).fill(false);
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
      current = { skippedBefore: skipped, lines: [] };
      hunks.push(current);
      skipped = 0;
    }
    current.lines.push(line);
  });
  return { hunks, skippedAfter: skipped };
}
