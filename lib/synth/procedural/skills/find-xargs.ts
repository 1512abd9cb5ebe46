// Selecting live batch files in a tree. There are always `.rec.bak` and `.tmp` stale copies, and
// live files sit at two depths (some directly under a category, most under a day), so a pattern
// that admits either stale suffix or a glob of one fixed depth sums the wrong files.
import { isoTime } from '../records.ts';
import { chunk, decimalsPhrase, printfValue, show, sum, type Skill, type DataFile } from '../skill.ts';
import type { Scenario } from '../scenario.ts';

const total = (s: Scenario, files: string): string =>
  [
    `export -f extract`,
    `${files} | xargs -0 -I{} bash -c 'extract < "$1"' _ {} | awk -F'\\t' '{ t += $2 } END { printf "${printfValue(s)}\\n", t }' > "$out"`,
  ].join('\n');

// Live batches (*.rec) and stale copies (*.rec.bak, *.tmp) scattered over a category/day tree.
export const findXargs: Skill = {
  name: 'find-xargs',
  title: 'file selection with find and xargs',
  materialise: ({ scenario, rng, records }) => {
    // The first record is live, the last two stale: one of each stale kind, whatever the dice say.
    const live = records.filter((_, i) => i === 0 || (i < records.length - 2 && rng.next() < 0.7));
    const stale = records.filter((r) => !live.includes(r));
    const files: DataFile[] = [];
    const place = (group: typeof records, parts: number, name: (i: number, day: string) => string): void => {
      chunk(group, parts).forEach((part, i) => {
        const first = part[0]!;
        files.push({ path: `tree/${first.category}/${name(i, isoTime(first.time).slice(0, 10))}`, content: scenario.render(part) });
      });
    };
    const partsOf = (group: typeof records, least: number) => Math.max(least, Math.ceil(group.length / 6));
    place(live, partsOf(live, 1), (i, day) => (i === 0 ? `batch-${i + 1}.rec` : `${day}/batch-${i + 1}.rec`));
    const suffixes = ['.rec.bak', '.tmp'];
    place(stale, partsOf(stale, 2), (i, day) => `${day}/batch-${i + 1}${suffixes[i] ?? rng.pick(suffixes)}`);
    return { files, answer: show(scenario, sum(live)) };
  },
  task: (s) =>
    `\`DATA/tree/\` holds batch files in nested directories, each a complete \`${s.fileName}\` in the format above. Only files whose name ends in \`.rec\` are live; \`.rec.bak\` and \`.tmp\` files are stale copies to ignore. Sum the ${s.nouns.value} over all ${s.nouns.records} in live files and write it to OUT ${decimalsPhrase(s)}.`,
  solve: (s) => total(s, `find "$d/tree" -type f -name '*.rec' -print0`),
  nearMisses: (s) => [
    { name: 'rec-bak-included', why: 'matches `*.rec*`, so the `.rec.bak` copies count', solve: total(s, `find "$d/tree" -type f -name '*.rec*' -print0`) },
    { name: 'tmp-included', why: 'only excludes `*.bak`, so the `.tmp` copies count', solve: total(s, `find "$d/tree" -type f ! -name '*.bak' -print0`) },
    {
      name: 'fixed-depth-glob',
      why: 'globs `tree/*/*/*.rec`, missing live files that sit at another depth',
      solve: total(s, `printf '%s\\0' "$d"/tree/*/*/*.rec`),
    },
  ],
};
