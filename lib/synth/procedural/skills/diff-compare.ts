// Comparing two versions of a file with diff. The new version never adds as many lines as it
// removes, so reporting the two counts the wrong way round shows, and a unified diff's `+++`/`---`
// header lines counted as changes show too.
import type { DataRecord } from '../records.ts';
import type { Rng } from '../rng.ts';
import type { Skill } from '../skill.ts';

// Length of the longest common subsequence of two line lists: a minimal diff adds exactly the
// new lines outside it and removes the old ones outside it, whichever LCS diff happens to pick.
function lcsLength(a: string[], b: string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const line of a) {
    const current = [0];
    for (let j = 0; j < b.length; j++) current.push(line === b[j] ? previous[j]! + 1 : Math.max(previous[j + 1]!, current[j]!));
    previous = current;
  }
  return previous[b.length]!;
}

// Some old records removed, some changed, the new ones inserted here and there and at the end.
function revise(rng: Rng, old: DataRecord[], added: DataRecord[]): DataRecord[] {
  const extra = [...added];
  const revised: DataRecord[] = [];
  old.forEach((r, i) => {
    const roll = rng.next();
    if (roll < 0.08 && i > 0) return; // removed
    revised.push(roll < 0.16 ? { ...r, value: r.value + rng.int(1, 50) } : r);
    if (roll > 0.94) revised.push(extra.shift() ?? r);
  });
  return [...revised, ...extra];
}

const counted = (added: string, removed: string): string => `echo "$(grep -c '${added}' "$tmp" || true) $(grep -c '${removed}' "$tmp" || true)" > "$out"`;

export const diffCompare: Skill = {
  name: 'diff-compare',
  title: 'comparing versions with diff',
  answersInteger: true,
  materialise: ({ scenario, rng, records }) => {
    const old = records.slice(0, -3);
    const oldText = scenario.render(old);
    const oldLines = oldText.split('\n').slice(0, -1);
    let newText = '';
    let counts: [number, number] = [0, 0];
    for (let guard = 0; guard < 50 && counts[0] === counts[1]; guard++) {
      newText = scenario.render(revise(rng, old, records.slice(-3)));
      const newLines = newText.split('\n').slice(0, -1);
      const common = lcsLength(oldLines, newLines);
      counts = [newLines.length - common, oldLines.length - common];
    }
    return {
      files: [
        { path: `old/${scenario.fileName}`, content: oldText },
        { path: `new/${scenario.fileName}`, content: newText },
      ],
      answer: counts.join(' '),
    };
  },
  task: (s) =>
    `\`DATA/old/${s.fileName}\` and \`DATA/new/${s.fileName}\` are two versions of the same file. Compare them line by line with a minimal diff (\`diff --minimal\`). Write one line to OUT: the number of lines only in the new version, a space, and the number of lines only in the old version.`,
  solve: (s) => [`tmp=$(mktemp)`, `diff --minimal "$d/old/${s.fileName}" "$d/new/${s.fileName}" > "$tmp" || true`, counted('^>', '^<')].join('\n'),
  nearMisses: (s) => [
    {
      name: 'directions-swapped',
      why: "takes the `<` lines as the new version's and the `>` lines as the old one's",
      solve: [`tmp=$(mktemp)`, `diff --minimal "$d/old/${s.fileName}" "$d/new/${s.fileName}" > "$tmp" || true`, counted('^<', '^>')].join('\n'),
    },
    {
      name: 'unified-headers-counted',
      why: 'counts `^+` and `^-` in a unified diff, which includes the `+++` and `---` header lines',
      solve: [`tmp=$(mktemp)`, `diff -u --minimal "$d/old/${s.fileName}" "$d/new/${s.fileName}" > "$tmp" || true`, counted('^+', '^-')].join('\n'),
    },
  ],
};
