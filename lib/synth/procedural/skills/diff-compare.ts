import type { DataRecord } from '../records.ts';
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

export const diffCompare: Skill = {
  name: 'diff-compare',
  title: 'comparing versions with diff',
  materialise: ({ scenario, rng, records }) => {
    const extra = records.slice(-3);
    const old = records.slice(0, -3);
    const revised: DataRecord[] = [];
    old.forEach((r, i) => {
      const roll = rng.next();
      if (roll < 0.08 && i > 0) return; // removed
      revised.push(roll < 0.16 ? { ...r, value: r.value + rng.int(1, 50) } : r);
      if (roll > 0.94) revised.push(extra.shift() ?? r);
    });
    revised.push(...extra);
    const oldText = scenario.render(old);
    const newText = scenario.render(revised);
    const oldLines = oldText.split('\n').slice(0, -1);
    const newLines = newText.split('\n').slice(0, -1);
    const common = lcsLength(oldLines, newLines);
    return {
      files: [
        { path: `old/${scenario.fileName}`, content: oldText },
        { path: `new/${scenario.fileName}`, content: newText },
      ],
      answer: `${newLines.length - common} ${oldLines.length - common}`,
    };
  },
  task: (s) =>
    `\`DATA/old/${s.fileName}\` and \`DATA/new/${s.fileName}\` are two versions of the same file. Compare them line by line with a minimal diff (\`diff --minimal\`). Write one line to OUT: the number of lines only in the new version, a space, and the number of lines only in the old version.`,
  solve: (s) =>
    [
      `tmp=$(mktemp)`,
      `diff --minimal "$d/old/${s.fileName}" "$d/new/${s.fileName}" > "$tmp" || true`,
      `echo "$(grep -c '^>' "$tmp" || true) $(grep -c '^<' "$tmp" || true)" > "$out"`,
    ].join('\n'),
};
