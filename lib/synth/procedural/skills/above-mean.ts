// A threshold derived from the data: per category, the records strictly above that category's
// mean. One record sits exactly on its category's mean (`>=` counts it) and the counts differ
// from those against the overall mean.
import type { DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { a, awkUnits, byName } from './shaping.ts';

// Per category, the records whose value times the count exceeds the total: exact in integers.
export function aboveMean(records: DataRecord[], scope: (r: DataRecord) => DataRecord[], strict = true): string {
  const categories = [...new Set(records.map((r) => r.category))].sort(byName);
  return categories
    .map((c) => {
      const mine = records.filter((r) => r.category === c);
      const pool = scope(mine[0]!);
      const total = pool.reduce((t, r) => t + r.value, 0);
      return `${c} ${mine.filter((r) => (strict ? r.value * pool.length > total : r.value * pool.length >= total)).length}`;
    })
    .join('\n');
}

export const aboveMeanSkill: Skill = {
  name: 'above-mean',
  title: 'thresholds derived from the data',
  materialise: ({ scenario, params, rng, records }) => {
    const own = (r: DataRecord): DataRecord[] => records.filter((x) => x.category === r.category);
    const mine = records.filter((r) => r.category === params.category);
    // Make one record equal its category's mean: with n values, set the last to the mean of the
    // others after rounding their total to a multiple of n − 1.
    if (mine.length < 3) {
      for (let i = mine.length; i < 3; i++)
        records.push({ ...rng.pick(records), category: params.category, time: records[records.length - 1]!.time + 60 * (i + 1) });
    }
    const group = records.filter((r) => r.category === params.category);
    const [pivot, adjust, ...rest] = rng.shuffle(group);
    const others = [adjust!, ...rest];
    const remainder = others.reduce((t, r) => t + r.value, 0) % others.length;
    adjust!.value += others.length - remainder === others.length ? 0 : others.length - remainder;
    pivot!.value = others.reduce((t, r) => t + r.value, 0) / others.length;
    // Against the overall mean the counts must differ: lift the smallest of another category to the maximum if they agree.
    for (let round = 0; round < 10 && aboveMean(records, own) === aboveMean(records, () => records); round++) {
      const victim = records.filter((r) => r.category !== params.category).sort((a, b) => a.value - b.value)[round];
      if (victim) victim.value = scenario.value.max;
    }
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: aboveMean(records, own) };
  },
  task: (s) =>
    `For each ${s.nouns.category} in \`DATA/${s.fileName}\`, compute the mean ${s.nouns.value} of that ${s.nouns.category}'s ${s.nouns.records} and count its ${s.nouns.records} whose ${s.nouns.value} is strictly greater than that mean (${a(s.nouns.value)} equal to the mean does not count). Write one line per ${s.nouns.category} present to OUT: the ${s.nouns.category}, a space, and the count; lines sorted by ${s.nouns.category} in byte order.`,
  solve: (s) => aboveMeanAwk(s.fileName, awkUnits(s), '$4', '>'),
  nearMisses: (s) => [
    { name: 'equal-counts', why: 'counts values equal to the mean too (>= instead of >)', solve: aboveMeanAwk(s.fileName, awkUnits(s), '$4', '>=') },
    {
      name: 'overall-mean',
      why: 'compares every record with the mean over all records instead of its own category',
      solve: aboveMeanAwk(s.fileName, awkUnits(s), '"all"', '>'),
    },
  ],
};

// Two passes over the extracted rows: totals and counts per group, then the comparison in
// integers (value × count against the total), so a value equal to the mean is exactly equal.
function aboveMeanAwk(fileName: string, units: string, group: string, op: '>' | '>='): string {
  return [
    `tmp=$(mktemp)`,
    `extract < "$d/${fileName}" > "$tmp"`,
    `awk -F'\\t' 'NR == FNR { g = ${group}; t[g] += ${units}; n[g]++; next } { g = ${group}; seen[$4] += 0; if (${units} * n[g] ${op} t[g]) seen[$4]++ }`,
    `  END { for (c in seen) print c, seen[c] }' "$tmp" "$tmp" | sort > "$out"`,
  ].join('\n');
}
