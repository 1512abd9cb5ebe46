import type { Rng } from '../rng.ts';
import { topByCount, type Skill } from '../skill.ts';

// The same value typed by different hands: random letter case, '-' sometimes typed as '_'.
function scramble(rng: Rng, text: string): string {
  return [...text].map((ch) => (ch === '-' && rng.next() < 0.5 ? '_' : rng.next() < 0.4 ? ch.toUpperCase() : ch.toLowerCase())).join('');
}

const normalise = (text: string): string => text.toLowerCase().replaceAll('_', '-');

export const trNormalise: Skill = {
  name: 'tr-normalise',
  title: 'character normalisation with tr',
  materialise: ({ scenario, rng, records }) => {
    const scrambled = records.map((r) => ({ ...r, text: scramble(rng, r.text) }));
    const [value, count] = topByCount(scrambled.map((r) => normalise(r.text)));
    return { files: [{ path: scenario.fileName, content: scenario.render(scrambled) }], answer: `${value} ${count}` };
  },
  task: (s) =>
    `The ${s.nouns.text} values in \`DATA/${s.fileName}\` were typed inconsistently: letter case varies and \`-\` was sometimes typed as \`_\`. Normalise each to lower case with every \`_\` replaced by \`-\`, then find the most frequent normalised value (ties: the smallest in byte order). Write one line to OUT: the normalised value, a space, and its count.`,
  solve: (s) => `extract < "$d/${s.fileName}" | cut -f5 | tr 'A-Z_' 'a-z-' | sort | uniq -c | sort -k1,1nr -k2,2 | awk 'NR == 1 { print $2, $1 }' > "$out"`,
};
