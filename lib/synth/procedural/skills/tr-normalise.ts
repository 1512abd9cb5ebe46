// Normalising inconsistently typed values before counting them. Two normalised values always share
// the top count (so the tie-break decides); the winner contains letters typed in mixed case (so
// skipping the lower-casing splits it) and, where the scenario has hyphenated values, a `-` typed
// as `_` (so skipping that replacement splits it).
import { byteCompare, type DataRecord } from '../records.ts';
import type { Rng } from '../rng.ts';
import { topByCount, type Skill } from '../skill.ts';

// The same value typed by different hands: random letter case, '-' sometimes typed as '_'.
function scramble(rng: Rng, text: string): string {
  return [...text].map((ch) => (ch === '-' && rng.next() < 0.5 ? '_' : rng.next() < 0.4 ? ch.toUpperCase() : ch.toLowerCase())).join('');
}

const normalise = (text: string): string => text.toLowerCase().replaceAll('_', '-');

// Values that can win the tie against a larger one, preferring hyphenated ones (so the `_` trap
// applies); all need letters, so mixed case can split them.
function winners(texts: readonly string[]): { candidates: string[]; hyphenated: boolean } {
  const sorted = [...new Set(texts.map(normalise))].sort(byteCompare);
  const eligible = sorted.slice(0, -1).filter((t) => /[a-z]/.test(t));
  const hyphenated = eligible.filter((t) => t.includes('-'));
  return hyphenated.length > 0 ? { candidates: hyphenated, hyphenated: true } : { candidates: eligible, hyphenated: false };
}

function shape(rng: Rng, texts: readonly string[], records: DataRecord[]): DataRecord[] {
  const { candidates } = winners(texts);
  if (candidates.length === 0) throw new Error('tr-normalise needs two distinct values, one with letters');
  const winner = rng.pick(candidates);
  const partner = rng.pick([...new Set(texts.map(normalise))].filter((t) => byteCompare(t, winner) > 0));
  const plain = records.map((r) => ({ ...r, text: normalise(r.text) }));
  const count = (t: string) => plain.filter((r) => r.text === t).length;
  for (let guard = 0; guard < 2 * plain.length; guard++) {
    const [w, p] = [count(winner), count(partner)];
    const others = plain.filter((r) => r.text !== winner && r.text !== partner);
    if (w === p && w >= 2 && others.every((r) => count(r.text) < w)) break;
    if (others.length === 0) throw new Error('tr-normalise ran out of records to relabel');
    rng.pick(others).text = w < p || (w === p && w < 2) ? winner : w > p ? partner : winner;
  }
  const scrambled = plain.map((r) => ({ ...r, text: scramble(rng, r.text) }));
  const mine = scrambled.filter((r) => normalise(r.text) === winner);
  const spelling = (t: string) => t.replaceAll('_', '-');
  if (new Set(mine.map((r) => spelling(r.text))).size < 2) mine[0]!.text = spelling(mine[0]!.text) === winner ? winner.toUpperCase() : winner;
  if (winner.includes('-') && !mine.some((r) => r.text.includes('_'))) mine[1]!.text = mine[1]!.text.replace('-', '_');
  return scrambled;
}

const count = (s: { fileName: string }, normalising: string, order: string): string =>
  `extract < "$d/${s.fileName}" | cut -f5 | ${normalising} | sort | uniq -c | sort ${order} | awk 'NR == 1 { print $2, $1 }' > "$out"`;

export const trNormalise: Skill = {
  name: 'tr-normalise',
  title: 'character normalisation with tr',
  materialise: ({ scenario, rng, records }) => {
    const scrambled = shape(rng, scenario.texts, records);
    const [value, n] = topByCount(scrambled.map((r) => normalise(r.text)));
    return { files: [{ path: scenario.fileName, content: scenario.render(scrambled) }], answer: `${value} ${n}` };
  },
  task: (s) =>
    `The ${s.nouns.text} values in \`DATA/${s.fileName}\` were typed inconsistently: letter case varies and \`-\` was sometimes typed as \`_\`. Normalise each to lower case with every \`_\` replaced by \`-\`, then find the most frequent normalised value (ties: the smallest in byte order). Write one line to OUT: the normalised value, a space, and its count.`,
  solve: (s) => count(s, `tr 'A-Z_' 'a-z-'`, '-k1,1nr -k2,2'),
  nearMisses: (s) => [
    { name: 'ties-wrong-way', why: 'breaks the tie for the top count towards the largest value', solve: count(s, `tr 'A-Z_' 'a-z-'`, '-k1,1nr -k2,2r') },
    { name: 'case-kept', why: 'replaces `_` but does not lower-case, so case variants count apart', solve: count(s, `tr '_' '-'`, '-k1,1nr -k2,2') },
    ...(winners(s.texts).hyphenated
      ? [{ name: 'underscores-kept', why: 'lower-cases but leaves `_`, so `a_b` and `a-b` count apart', solve: count(s, `tr 'A-Z' 'a-z'`, '-k1,1nr -k2,2') }]
      : []),
  ],
};
