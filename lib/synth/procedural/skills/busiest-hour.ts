// Time-window aggregation: records bucketed by UTC clock hour (date included). The data holds a
// tie for the busiest hour between the earliest and the latest hour, so a tie broken the wrong way
// shows, and the busiest hour of day differs from the busiest dated hour.
import type { DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { addAt, byName, hourOf, nativeFile } from './shaping.ts';

export function busiestHour(records: DataRecord[]): [string, number] {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(hourOf(r.time), (counts.get(hourOf(r.time)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || byName(a[0], b[0]))[0]!;
}

export const busiestHourSkill: Skill = {
  name: 'busiest-hour',
  title: 'per-hour buckets and the busiest window',
  materialise: ({ scenario, rng, records }) => {
    const first = records[0]!;
    const last = records[records.length - 1]!;
    // The latest hour is always at least one hour after the earliest.
    if (hourOf(last.time) === hourOf(first.time)) addAt(records, { ...last }, last.time + 3_600);
    const early = hourOf(records[0]!.time);
    const late = hourOf(records[records.length - 1]!.time);
    const target = busiestHour(records)[1] + 1;
    for (const hour of [early, late]) {
      const start = Date.parse(`${hour}:00:00Z`) / 1000;
      while (records.filter((r) => hourOf(r.time) === hour).length < target) {
        const template = rng.pick(records);
        addAt(records, { ...template }, start + rng.int(0, 3_599));
      }
    }
    const [hour, count] = busiestHour(records);
    return { files: [nativeFile(scenario, records)], answer: `${hour} ${count}` };
  },
  task: (s) =>
    `Group the ${s.nouns.records} of \`DATA/${s.fileName}\` by the UTC clock hour of their ${s.nouns.time} (the date and the hour: 10:00:00 to 10:59:59 on one day is one hour). Find the hour with the most ${s.nouns.records}; ties: the earliest hour. Write one line to OUT: the hour as \`YYYY-MM-DDTHH\`, a space, and its number of ${s.nouns.records}.`,
  solve: (s) => `extract < "$d/${s.fileName}" | cut -f3 | cut -c1-13 | sort | uniq -c | sort -k1,1nr -k2,2 | awk 'NR == 1 { print $2, $1 }' > "$out"`,
  nearMisses: (s) => [
    {
      name: 'ties-latest-hour',
      why: 'breaks the tie towards the latest hour (sorts the hours in reverse)',
      solve: `extract < "$d/${s.fileName}" | cut -f3 | cut -c1-13 | sort | uniq -c | sort -k1,1nr -k2,2r | awk 'NR == 1 { print $2, $1 }' > "$out"`,
    },
    {
      name: 'hour-of-day-only',
      why: 'buckets by the hour of day alone, merging the same hour on different days',
      solve: `extract < "$d/${s.fileName}" | cut -f3 | cut -c12-13 | sort | uniq -c | sort -k1,1nr -k2,2 | awk 'NR == 1 { print $2, $1 }' > "$out"`,
    },
  ],
};
