// Rewriting digit runs. About half the texts get a version suffix (`-v7`, `-v12`, `-v1.4`); the
// asked category always holds a multi-digit run and a text with two runs, and its texts are not in
// sorted order, so a per-digit rewrite, a rewrite of the first run only or a sorted output shows.
import type { DataRecord } from '../records.ts';
import type { Rng } from '../rng.ts';
import type { Skill } from '../skill.ts';
import { ensureCount } from './traps.ts';

const version = (rng: Rng): string => (rng.next() < 0.5 ? `-v${rng.int(1, 120)}` : `-v${rng.int(1, 9)}.${rng.int(0, 30)}`);
const rewrite = (text: string): string => text.replace(/[0-9]+/g, 'N');

export const sedRewrite: Skill = {
  name: 'sed-rewrite',
  title: 'stream rewriting with sed',
  materialise: ({ scenario, params, rng, records }) => {
    ensureCount(rng, records, 'category', params.category, 3);
    const versioned: DataRecord[] = records.map((r) => (rng.next() < 0.5 ? { ...r, text: `${r.text}${version(rng)}` } : r));
    const mine = versioned.filter((r) => r.category === params.category);
    mine[0]!.text = `${records[versioned.indexOf(mine[0]!)]!.text}-v${rng.int(10, 120)}`;
    mine[1]!.text = `${records[versioned.indexOf(mine[1]!)]!.text}-v${rng.int(1, 9)}.${rng.int(0, 30)}`;
    const sortedUnique = (texts: string[]) => texts.every((t, i) => i === 0 || texts[i - 1]! < t);
    if (sortedUnique(mine.map((r) => rewrite(r.text)))) [mine[0]!.text, mine[mine.length - 1]!.text] = [mine[mine.length - 1]!.text, mine[0]!.text];
    const rewritten = mine.map((r) => rewrite(r.text));
    return { files: [{ path: scenario.fileName, content: scenario.render(versioned) }], answer: rewritten.join('\n') };
  },
  task: (s, p) =>
    `Take the ${s.nouns.text} of every ${s.nouns.record} in \`DATA/${s.fileName}\` whose ${s.nouns.category} is \`${p.category}\`, in file order, and replace every run of digits in it with a single \`N\` (\`build-v12\` becomes \`build-vN\`, \`build-v1.4\` becomes \`build-vN.N\`). Write the rewritten values to OUT, one per line.`,
  solve: (s, p) => `extract < "$d/${s.fileName}" | awk -F'\\t' -v c='${p.category}' '$4 == c { print $5 }' | sed -E 's/[0-9]+/N/g' > "$out"`,
  nearMisses: (s, p) => [
    {
      name: 'per-digit',
      why: 'replaces every digit with `N`, so `v12` becomes `vNN` instead of `vN`',
      solve: `extract < "$d/${s.fileName}" | awk -F'\\t' -v c='${p.category}' '$4 == c { print $5 }' | sed 's/[0-9]/N/g' > "$out"`,
    },
    {
      name: 'first-run-only',
      why: 'rewrites only the first run of digits in each value (no `g` flag)',
      solve: `extract < "$d/${s.fileName}" | awk -F'\\t' -v c='${p.category}' '$4 == c { print $5 }' | sed -E 's/[0-9]+/N/' > "$out"`,
    },
    {
      name: 'sorted-unique',
      why: 'sorts and de-duplicates the values instead of keeping file order',
      solve: `extract < "$d/${s.fileName}" | awk -F'\\t' -v c='${p.category}' '$4 == c { print $5 }' | sed -E 's/[0-9]+/N/g' | sort -u > "$out"`,
    },
  ],
};
