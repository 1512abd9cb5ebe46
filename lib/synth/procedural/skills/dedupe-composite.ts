// De-duplication by a composite key: a record re-sent by a retry has the same key and time as the
// original and follows it; some re-sends carry a corrected value. Keeping the last of each
// (key, time) is the rule; a whole-line `sort -u`, keeping the first, or de-duplicating by key
// alone each give another count or total.
import type { DataRecord } from '../records.ts';
import { sum, type Skill } from '../skill.ts';
import { awkShow, awkUnits, showUnits } from './shaping.ts';

export function dedupeLast(records: DataRecord[]): DataRecord[] {
  const kept = new Map<string, DataRecord>();
  for (const r of records) kept.set(`${r.key}\u0000${r.time}`, r);
  return [...kept.values()];
}

export const dedupeSkill: Skill = {
  name: 'dedupe-composite',
  title: 'de-duplication by a composite key',
  answersInteger: true,
  materialise: ({ scenario, rng, records }) => {
    const originals = rng.shuffle(records).slice(0, Math.max(3, Math.floor(records.length / 8)));
    originals.forEach((original, i) => {
      // The first re-send always carries a corrected value; the others are exact copies or corrected.
      const corrected = i === 0 || rng.next() < 0.5;
      const value = corrected ? (original.value > scenario.value.min + 10 ? original.value - rng.int(1, 10) : original.value + rng.int(1, 10)) : original.value;
      records.splice(records.indexOf(original) + 1, 0, { ...original, value });
    });
    const kept = dedupeLast(records);
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: `${kept.length} ${showUnits(scenario, sum(kept))}` };
  },
  task: (s) =>
    `Some ${s.nouns.records} in \`DATA/${s.fileName}\` were sent more than once by a retrying client: ${s.nouns.records} with the same ${s.nouns.key} and the same ${s.nouns.time} are one ${s.nouns.record}, and when their values of the ${s.nouns.value} differ the one that comes last in the file is the correct one. De-duplicate by (${s.nouns.key}, ${s.nouns.time}) keeping the last, then write one line to OUT: the number of distinct ${s.nouns.records}, a space, and their total ${s.nouns.value} ${s.value.decimals === 0 ? 'as an integer' : 'with exactly 2 decimals'}.`,
  solve: (s) =>
    `extract < "$d/${s.fileName}" | awk -F'\\t' '{ v[$1 SUBSEP $3] = ${awkUnits(s)} } END { for (k in v) { t += v[k]; n++ } print n, ${awkShow(s, 't')} }' > "$out"`,
  nearMisses: (s) => [
    {
      name: 'whole-line-dedupe',
      why: 'removes only identical lines (`sort -u`), so a re-send with a corrected value counts twice',
      solve: `extract < "$d/${s.fileName}" | sort -u | awk -F'\\t' '{ t += ${awkUnits(s)}; n++ } END { print n, ${awkShow(s, 't')} }' > "$out"`,
    },
    {
      name: 'keep-first',
      why: 'keeps the first of each (key, time) instead of the last, so corrected values are lost',
      solve: `extract < "$d/${s.fileName}" | awk -F'\\t' '!(($1 SUBSEP $3) in v) { v[$1 SUBSEP $3] = ${awkUnits(s)} } END { for (k in v) { t += v[k]; n++ } print n, ${awkShow(s, 't')} }' > "$out"`,
    },
    {
      name: 'key-only',
      why: 'de-duplicates by the key alone, merging different records of one key',
      solve: `extract < "$d/${s.fileName}" | awk -F'\\t' '{ v[$1] = ${awkUnits(s)} } END { for (k in v) { t += v[k]; n++ } print n, ${awkShow(s, 't')} }' > "$out"`,
    },
  ],
};
