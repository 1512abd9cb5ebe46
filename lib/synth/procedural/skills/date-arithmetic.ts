// The time span of one key's records. The file is two hosts' logs one after the other, so lines
// are not in time order: the key's first line in the file is not its earliest record, nor its
// last line its latest. The file's earliest record belongs to another key, so a span over all
// records is wrong too.
import type { Skill } from '../skill.ts';
import { ensureCount, mergedHosts } from './traps.ts';

const span = (times: string): string =>
  [
    `times=$(${times})`,
    `first=$(date -u -d "$(printf '%s\\n' "$times" | sed -n '1p')" +%s)`,
    `last=$(date -u -d "$(printf '%s\\n' "$times" | sed -n '$p')" +%s)`,
    `echo $((last - first)) > "$out"`,
  ].join('\n');

export const dateArithmetic: Skill = {
  name: 'date-arithmetic',
  title: 'date arithmetic with date',
  answersInteger: true,
  materialise: ({ scenario, params, rng, records }) => {
    const earliest = records[0]!;
    if (earliest.key === params.key)
      earliest.key = rng.pick(
        records
          .filter((r) => r.key !== params.key)
          .map((r) => r.key)
          .concat(`${params.key}0`),
      );
    ensureCount(rng, records, 'key', params.key, 2, (r) => r === earliest);
    const mine = records.filter((r) => r.key === params.key);
    const file = mergedHosts(rng, records, new Set([mine[mine.length - 1]!]), new Set([mine[0]!]));
    const times = mine.map((r) => r.time);
    return { files: [{ path: scenario.fileName, content: scenario.render(file) }], answer: String(Math.max(...times) - Math.min(...times)) };
  },
  task: (s, p) =>
    `For the ${s.nouns.key} \`${p.key}\` in \`DATA/${s.fileName}\`, compute the number of seconds between its earliest and its latest ${s.nouns.record} (by ${s.nouns.time}). Write that integer to OUT.`,
  solve: (s, p) => span(`extract < "$d/${s.fileName}" | awk -F'\\t' -v k='${p.key}' '$1 == k { print $3 }' | sort`),
  nearMisses: (s, p) => [
    {
      name: 'file-order-as-time-order',
      why: 'takes the first and last matching lines of the file as the earliest and latest, but the lines are not in time order',
      solve: span(`extract < "$d/${s.fileName}" | awk -F'\\t' -v k='${p.key}' '$1 == k { print $3 }'`),
    },
    {
      name: 'no-key-filter',
      why: `spans every ${s.nouns.record} of the file, not only those of ${p.key}`,
      solve: span(`extract < "$d/${s.fileName}" | cut -f3 | sort`),
    },
  ],
};
