// The lower median of one category's values. The category gets an even number of records with
// middle values two units apart or more (averaging the two middles is wrong, even rounded) and
// values of different digit counts, added until a text sort (9 after 10) picks another value.
import type { DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { addAt, awkShow, awkUnits, byName, nativeFile, showUnits, unitScale } from './shaping.ts';

export const textMedian = (shown: string[]): string => [...shown].sort(byName)[Math.ceil(shown.length / 2) - 1]!;
export const lowerMedian = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.ceil(values.length / 2) - 1]!;

export const medianSkill: Skill = {
  name: 'median',
  title: 'the median of a filtered column',
  materialise: ({ scenario, params, rng, records }) => {
    const scale = unitScale(scenario);
    const inCategory = (): DataRecord[] => records.filter((r) => r.category === params.category);
    // A value one digit shorter than the others (below a power of ten) and several above it, so
    // sorting as text and as numbers disagree about the middle.
    const minWhole = Math.ceil(scenario.value.min / scale);
    const maxWhole = Math.floor(scenario.value.max / scale);
    let power = 10;
    while (power * 10 <= maxWhole && power <= minWhole) power *= 10;
    const short = Math.max(minWhole, power - 1) * scale;
    const long = Math.min(maxWhole, power + 1) * scale;
    const template = { ...records[0]!, category: params.category };
    const span = records[records.length - 1]!.time - records[0]!.time;
    const add = (value: number): void => void addAt(records, { ...template, value, key: rng.pick(records).key }, records[0]!.time + rng.int(1, span));
    [short, long, long + scale].forEach(add);
    for (let round = 0; round < 20; round++) {
      if (inCategory().length % 2 === 1) add(long + 2 * scale);
      // Middles at least two units apart, so their mean never rounds back to the lower one.
      const sorted = inCategory().sort((a, b) => a.value - b.value);
      const half = sorted.length / 2;
      const lift = 2 - (sorted[half]!.value - sorted[half - 1]!.value);
      if (lift > 0) for (const r of sorted.slice(half)) r.value += lift;
      const shown = inCategory().map((r) => showUnits(scenario, r.value));
      if (textMedian(shown) !== showUnits(scenario, lowerMedian(inCategory().map((r) => r.value)))) break;
      add(short);
      add(short);
    }
    return { files: [nativeFile(scenario, records)], answer: showUnits(scenario, lowerMedian(inCategory().map((r) => r.value))) };
  },
  task: (s, p) =>
    `Find the lower median of the ${s.nouns.value} over the ${s.nouns.records} in \`DATA/${s.fileName}\` whose ${s.nouns.category} is \`${p.category}\`: sort their n values in ascending numeric order and take the one at 1-based position ⌈n/2⌉ (for an even n the lower of the two middle values, not their mean). Write it to OUT exactly as the file shows each ${s.nouns.value}${s.value.decimals === 0 ? '' : ' (two decimals)'}.`,
  solve: (s, p) =>
    `extract < "$d/${s.fileName}" | awk -F'\\t' -v c='${p.category}' '$4 == c { print ${awkUnits(s)} }' | sort -n | awk '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)]; print ${awkShow(s, 'm')} }' > "$out"`,
  nearMisses: (s, p) => [
    {
      name: 'mean-of-middles',
      why: 'averages the two middle values for an even count, as the usual median does, where the lower one was asked',
      solve: `extract < "$d/${s.fileName}" | awk -F'\\t' -v c='${p.category}' '$4 == c { print $2 }' | sort -n | awk '{ v[NR] = $1 } END { printf "%.${s.value.decimals}f\\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }' > "$out"`,
    },
    {
      name: 'text-sort',
      why: 'sorts the values as text (plain `sort`), so 9 comes after 10',
      solve: `extract < "$d/${s.fileName}" | awk -F'\\t' -v c='${p.category}' '$4 == c { print $2 }' | sort | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }' > "$out"`,
    },
  ],
};
