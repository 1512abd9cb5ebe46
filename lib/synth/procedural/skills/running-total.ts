// Running totals: the first record (in time order) at which the cumulative value reaches half of
// the grand total. The data makes the running total hit exactly half at one record, so `>` instead
// of `>=` and reporting the record before the crossing both name another record.
import { isoTime, type DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { awkShow, awkUnits, showUnits } from './shaping.ts';

export function halfwayRecord(records: DataRecord[]): [DataRecord, number] {
  const ordered = [...records].sort((a, b) => a.time - b.time);
  const total = ordered.reduce((t, r) => t + r.value, 0);
  let running = 0;
  for (const r of ordered) {
    running += r.value;
    if (2 * running >= total) return [r, running];
  }
  throw new Error('no records to total');
}

export const runningTotalSkill: Skill = {
  name: 'running-total',
  title: 'running totals crossing a bound',
  materialise: ({ scenario, records }) => {
    const ordered = [...records].sort((a, b) => a.time - b.time);
    const [crossing, prefix] = halfwayRecord(ordered);
    const at = ordered.indexOf(crossing);
    // Raise the records after the crossing until they total exactly the prefix, so the running
    // total equals half the grand total at the crossing record.
    if (at === ordered.length - 1) {
      const extra = { ...crossing, time: crossing.time + 60 };
      records.push(extra);
      ordered.push(extra);
    }
    const after = ordered.slice(at + 1);
    let missing = prefix - after.reduce((t, r) => t + r.value, 0);
    for (const r of after) {
      const lift = Math.min(missing, Math.max(0, scenario.value.max - r.value));
      r.value += lift;
      missing -= lift;
    }
    after[after.length - 1]!.value += missing;
    const [record, running] = halfwayRecord(records);
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: `${isoTime(record.time)} ${showUnits(scenario, running)}` };
  },
  task: (s) =>
    `Take the ${s.nouns.records} of \`DATA/${s.fileName}\` in ${s.nouns.time} order and keep a running total of their ${s.nouns.value}. Find the first ${s.nouns.record} at which the running total (including that ${s.nouns.record}) is greater than or equal to half of the grand total of all ${s.nouns.records}. Write one line to OUT: that ${s.nouns.record}'s ${s.nouns.time} as \`YYYY-MM-DDTHH:MM:SSZ\`, a space, and the running total there ${s.value.decimals === 0 ? 'as an integer' : 'with exactly 2 decimals'}.`,
  solve: (s) => runningAwk(s.fileName, awkUnits(s), awkShow(s, 'run'), '>=', false),
  nearMisses: (s) => [
    {
      name: 'strictly-above-half',
      why: 'waits for the running total to exceed half (> instead of >=)',
      solve: runningAwk(s.fileName, awkUnits(s), awkShow(s, 'run'), '>', false),
    },
    {
      name: 'record-before-crossing',
      why: 'reports the last record still below half instead of the one that reaches it',
      solve: runningAwk(s.fileName, awkUnits(s), awkShow(s, 'run'), '>=', true),
    },
  ],
};

function runningAwk(fileName: string, units: string, shown: string, op: '>=' | '>', previous: boolean): string {
  return [
    `tmp=$(mktemp)`,
    `extract < "$d/${fileName}" | sort -t "$(printf '\\t')" -k3,3 > "$tmp"`,
    `awk -F'\\t' 'NR == FNR { total += ${units}; next }`,
    `  { before = run; run += ${units} }`,
    `  2 * run ${op} total { ${previous ? 'run = before; print when, ' : 'print $3, '}${shown}; exit }`,
    `  { when = $3 }' "$tmp" "$tmp" > "$out"`,
  ].join('\n');
}
