// Anomaly detection: gaps in a stream of timestamps. Every gap longer than one hour between
// consecutive records is listed. The data holds a gap of exactly 3600 seconds (`>=` lists it) and
// one of 3601–3659 seconds (counted in whole minutes it is 60, not more than 60, and is missed).
import { isoTime, type DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';

const HOUR = 3_600;

export function gapsOver(records: DataRecord[], limit: number): [number, number][] {
  const times = [...records.map((r) => r.time)].sort((a, b) => a - b);
  return times.slice(1).flatMap((t, i) => (t - times[i]! > limit ? [[times[i]!, t] as [number, number]] : []));
}

export const timeGapsSkill: Skill = {
  name: 'time-gaps',
  title: 'gaps in a sequence of timestamps',
  materialise: ({ scenario, rng, records }) => {
    // Shift the records after two chosen points so the gaps there are exactly 3600 s and just over
    // an hour; later records move with them, so the other gaps stay as they were.
    const a = Math.max(1, Math.floor(records.length / 3));
    const b = Math.max(a + 1, Math.floor((2 * records.length) / 3));
    const setGap = (at: number, gap: number): void => {
      const shift = records[at - 1]!.time + gap - records[at]!.time;
      for (const r of records.slice(at)) r.time += shift;
    };
    setGap(a, HOUR);
    setGap(b, HOUR + rng.int(1, 59));
    return {
      files: [{ path: scenario.fileName, content: scenario.render(records) }],
      answer: gapsOver(records, HOUR)
        .map(([from, to]) => `${isoTime(from)} ${isoTime(to)} ${to - from}`)
        .join('\n'),
    };
  },
  task: (s) =>
    `The ${s.nouns.records} of \`DATA/${s.fileName}\` should arrive at least once an hour. Taking all ${s.nouns.records} in ${s.nouns.time} order, list every gap of more than 3600 seconds between consecutive ${s.nouns.records} (a gap of exactly 3600 seconds is fine). Write one line per gap to OUT, in time order: the ${s.nouns.time} before the gap, the one after it (both as \`YYYY-MM-DDTHH:MM:SSZ\`) and the gap in seconds, separated by spaces.`,
  solve: (s) => gapAwk(s.fileName, 'gap > 3600'),
  nearMisses: (s) => [
    { name: 'gap-boundary-inclusive', why: 'also lists a gap of exactly one hour (>= instead of >)', solve: gapAwk(s.fileName, 'gap >= 3600') },
    {
      name: 'whole-minutes',
      why: 'compares the gap in whole minutes, so a gap of 60 minutes and a few seconds is not more than 60',
      solve: gapAwk(s.fileName, 'int(gap / 60) > 60'),
    },
  ],
};

function gapAwk(fileName: string, test: string): string {
  return [
    `extract < "$d/${fileName}" | cut -f3 | sort | awk '{ t = mktime(gensub(/[-T:Z]/, " ", "g", $1), 1) }`,
    `  NR > 1 { gap = t - prev; if (${test}) print before, $1, gap } { prev = t; before = $1 }' > "$out"`,
  ].join('\n');
}
