import { isoTime } from '../records.ts';
import { chunk, decimalsPhrase, printfValue, show, sum, type Skill, type DataFile } from '../skill.ts';

// Live batches (*.rec) and stale copies (*.rec.bak, *.tmp) scattered over a category/day tree.
export const findXargs: Skill = {
  name: 'find-xargs',
  title: 'file selection with find and xargs',
  materialise: ({ scenario, rng, records }) => {
    const live = records.filter((_, i) => i === 0 || rng.next() < 0.7);
    const stale = records.filter((r) => !live.includes(r));
    const files: DataFile[] = [];
    const place = (group: typeof records, suffix: () => string): void => {
      chunk(group, Math.max(1, Math.ceil(group.length / 6))).forEach((part, i) => {
        const first = part[0]!;
        files.push({ path: `tree/${first.category}/${isoTime(first.time).slice(0, 10)}/batch-${i + 1}${suffix()}`, content: scenario.render(part) });
      });
    };
    place(live, () => '.rec');
    place(stale, () => rng.pick(['.rec.bak', '.tmp']));
    return { files, answer: show(scenario, sum(live)) };
  },
  task: (s) =>
    `\`DATA/tree/\` holds batch files in nested directories, each a complete \`${s.fileName}\` in the format above. Only files whose name ends in \`.rec\` are live; \`.rec.bak\` and \`.tmp\` files are stale copies to ignore. Sum the ${s.nouns.value} over all ${s.nouns.records} in live files and write it to OUT ${decimalsPhrase(s)}.`,
  solve: (s) =>
    [
      `export -f extract`,
      `find "$d/tree" -type f -name '*.rec' -print0 | xargs -0 -I{} bash -c 'extract < "$1"' _ {} | awk -F'\\t' '{ t += $2 } END { printf "${printfValue(s)}\\n", t }' > "$out"`,
    ].join('\n'),
};
