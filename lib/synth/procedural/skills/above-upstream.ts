// A threshold taken from an earlier step's answer: count the records whose value is strictly
// greater than T, the integer the step this one depends on wrote. The values are drawn around T,
// a few exactly at T (`>=` counts them) and most above it, so a threshold the data gives by itself
// (its mean) counts differently: the step cannot be solved without the earlier answer.
import type { DataRecord } from '../records.ts';
import type { Scenario } from '../scenario.ts';
import type { Skill, StepParams } from '../skill.ts';
import { a, awkUnits, unitScale } from './shaping.ts';

// Records strictly above (or, with `inclusive`, at or above) `threshold`, in smallest units.
export function countAbove(records: DataRecord[], threshold: number, inclusive = false): number {
  return records.filter((r) => (inclusive ? r.value >= threshold : r.value > threshold)).length;
}

// Records strictly above the mean of all records, compared exactly in integers (value × count against the total).
export function countAboveMean(records: DataRecord[]): number {
  const total = records.reduce((t, r) => t + r.value, 0);
  return records.filter((r) => r.value * records.length > total).length;
}

function upstreamFileOf(params: StepParams): string {
  if (!params.upstreamFile) throw new Error('above-upstream takes its threshold from the answer of the one step it depends on, and this step depends on none');
  return params.upstreamFile;
}

// The first word of the first line of the upstream answer file: the number the question calls T.
const readThreshold = (params: StepParams): string => `t=$(awk 'NR == 1 { print $1; exit }' ${upstreamFileOf(params)})`;

function countAwk(scenario: Scenario, threshold: string, op: '>' | '>='): string {
  return `extract < "$d/${scenario.fileName}" | awk -F'\\t' -v t="${threshold}" '${awkUnits(scenario)} ${op} t * ${unitScale(scenario)} { n++ } END { print n + 0 }' > "$out"`;
}

export const aboveUpstreamSkill: Skill = {
  name: 'above-upstream',
  title: 'a threshold taken from an earlier answer',
  answersInteger: true,
  computesWithUpstream: true,
  materialise: ({ scenario, rng, records, upstream }) => {
    if (upstream === undefined || !Number.isInteger(upstream) || upstream < 0)
      throw new Error(`above-upstream needs the non-negative integer answer of the step it depends on, not ${String(upstream)}`);
    const scale = unitScale(scenario);
    const threshold = upstream * scale;
    // Half of T either side (at least 3 display units), in smallest units.
    const spread = Math.max(3, Math.ceil(upstream / 2)) * scale;
    const low = Math.max(0, threshold - spread);
    // Two records exactly at T, then about a third below it and the rest above, so the mean of
    // the data lies above T and counting against it gives fewer records.
    const shuffled = rng.shuffle([...records]);
    shuffled.forEach((r, i) => {
      if (i < 2) r.value = threshold;
      else if (threshold > low && rng.next() < 0.35) r.value = rng.int(low, threshold - 1);
      else r.value = rng.int(threshold + 1, threshold + spread);
    });
    // Should the mean's count agree with T's, lift the records below T one at a time to the top
    // of the range: each adds one to T's count and moves the mean up.
    const below = shuffled.filter((r) => r.value < threshold);
    while (countAboveMean(records) === countAbove(records, threshold) && below.length > 0) below.pop()!.value = threshold + spread;
    if (countAboveMean(records) === countAbove(records, threshold))
      throw new Error(`above-upstream could not make the mean's count differ from T's for T = ${upstream}`);
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: String(countAbove(records, threshold)) };
  },
  task: (s, p) =>
    `Let T be the number the earlier step wrote on the first line of \`${upstreamFileOf(p)}\` (the first whitespace-separated word of that line). Count the ${s.nouns.records} in \`DATA/${s.fileName}\` whose ${s.nouns.value} is strictly greater than T (${a(s.nouns.value)} equal to T does not count). Write that count to OUT as an integer.`,
  solve: (s, p) => [readThreshold(p), countAwk(s, '$t', '>')].join('\n'),
  nearMisses: (s, p) => [
    {
      name: 'off-by-one',
      why: `counts the ${s.nouns.records} whose ${s.nouns.value} equals T too (>= instead of >)`,
      solve: [readThreshold(p), countAwk(s, '$t', '>=')].join('\n'),
    },
    {
      name: 'ignores-upstream',
      why: `compares with the mean ${s.nouns.value} of the data instead of T, the earlier step's answer`,
      solve: [
        `tmp=$(mktemp)`,
        `extract < "$d/${s.fileName}" > "$tmp"`,
        `awk -F'\\t' 'NR == FNR { t += ${awkUnits(s)}; c++; next } ${awkUnits(s)} * c > t { n++ } END { print n + 0 }' "$tmp" "$tmp" > "$out"`,
      ].join('\n'),
    },
  ],
};
