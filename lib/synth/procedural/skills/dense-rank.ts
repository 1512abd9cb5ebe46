// Rank within a group: keys ranked by their total value inside one category with a dense rank
// (equal totals share a rank, the next rank follows on). The two largest totals are made equal,
// so competition ranking (1, 1, 3) and row numbers (1, 2, 3) both print other ranks.
import type { DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { addAt, awkShow, awkUnits, showUnits } from './shaping.ts';
import { totalsByKey } from './top-k-ties.ts';

export function denseRanks(records: DataRecord[]): [number, string, number][] {
  let rank = 0;
  let previous: number | undefined;
  return totalsByKey(records).map(([key, total]) => {
    if (total !== previous) rank++;
    previous = total;
    return [rank, key, total];
  });
}

export const denseRankSkill: Skill = {
  name: 'dense-rank',
  title: 'dense ranking within a group',
  answersInteger: true,
  materialise: ({ scenario, params, rng, records }) => {
    const inCategory = (): DataRecord[] => records.filter((r) => r.category === params.category);
    const span = records[records.length - 1]!.time - records[0]!.time;
    const keys = [...new Set(records.map((r) => r.key))];
    // Three keys at least in the category, so a rank follows the tie.
    for (const key of keys) {
      if (new Set(inCategory().map((r) => r.key)).size >= 3) break;
      if (!inCategory().some((r) => r.key === key))
        addAt(records, { ...rng.pick(records), key, category: params.category }, records[0]!.time + rng.int(1, span));
    }
    const [first, second] = totalsByKey(inCategory());
    let missing = first![1] - second![1];
    while (missing > 0) {
      const value = Math.min(missing, scenario.value.max);
      addAt(records, { ...rng.pick(records), key: second![0], category: params.category, value }, records[0]!.time + rng.int(1, span));
      missing -= value;
    }
    return {
      files: [{ path: scenario.fileName, content: scenario.render(records) }],
      answer: denseRanks(inCategory())
        .map(([rank, key, total]) => `${rank} ${key} ${showUnits(scenario, total)}`)
        .join('\n'),
    };
  },
  task: (s, p) =>
    `Over the ${s.nouns.records} in \`DATA/${s.fileName}\` whose ${s.nouns.category} is \`${p.category}\`, total the ${s.nouns.value} per ${s.nouns.key} and rank them by total, largest first, with a dense rank: equal totals share a rank and the next distinct total gets the next rank (1, 1, 2, …). Write one line per ${s.nouns.key} to OUT: the rank, the ${s.nouns.key} and its total ${s.value.decimals === 0 ? 'as an integer' : 'with exactly 2 decimals'}, separated by spaces; lines ordered by rank, then ${s.nouns.key} in byte order.`,
  solve: (s, p) => rankAwk(s, p.category, 'if (t != prev) r++; prev = t'),
  nearMisses: (s, p) => [
    {
      name: 'competition-rank',
      why: 'gives the total after a tie the rank of its position (1, 1, 3) instead of the next rank',
      solve: rankAwk(s, p.category, 'if (t != prev) r = NR; prev = t'),
    },
    { name: 'row-number', why: 'numbers the lines (1, 2, 3), giving tied totals different ranks', solve: rankAwk(s, p.category, 'r = NR') },
  ],
};

function rankAwk(s: Parameters<Skill['task']>[0], category: string, rank: string): string {
  return [
    `extract < "$d/${s.fileName}" | awk -F'\\t' -v c='${category}' '$4 == c { t[$1] += ${awkUnits(s)} } END { for (k in t) print t[k], k }' |`,
    `  sort -k1,1nr -k2,2 | awk '{ t = $1; ${rank}; print r, $2, ${awkShow(s, 't')} }' > "$out"`,
  ].join('\n');
}
