// Regex extraction with capture groups and aggregation over a free-form application log:
// durations come in milliseconds or seconds, and retry lines carry `retry_key=`, which a pattern
// without a field boundary takes for `key=`. Dropping second-valued durations, reading them as
// milliseconds, or matching `retry_key=` each give other totals.
import { isoTime } from '../records.ts';
import type { Skill } from '../skill.ts';
import { a, byName } from './shaping.ts';

export interface LogLine {
  time: number;
  key: string;
  ms: number;
  seconds: boolean; // written as `dur=1.234s`
  retry: boolean; // a retry line: `retry_key=`, not a request of that key
}

export function writeLine(l: LogLine): string {
  const dur = l.seconds ? `${(l.ms / 1000).toFixed(3).replace(/0+$/, '').replace(/\.$/, '')}s` : `${l.ms}ms`;
  return l.retry
    ? `${isoTime(l.time)} WARN retry scheduled retry_key=${l.key} dur=${dur} attempt=2`
    : `${isoTime(l.time)} INFO request done key=${l.key} dur=${dur} status=ok`;
}

export function totalsPerKey(lines: LogLine[]): string {
  const totals = new Map<string, number>();
  for (const l of lines.filter((x) => !x.retry)) totals.set(l.key, (totals.get(l.key) ?? 0) + l.ms);
  return [...totals]
    .sort((a, b) => byName(a[0], b[0]))
    .map(([k, ms]) => `${k} ${ms}`)
    .join('\n');
}

export const regexExtractSkill: Skill = {
  name: 'regex-extract',
  title: 'regex capture groups over a free-form log',
  exportsColumns: true,
  materialise: ({ rng, records }) => {
    const lines: LogLine[] = records.map((r, i) => {
      const seconds = i % 4 === 1;
      return { time: r.time, key: r.key, ms: seconds ? rng.int(1_000, 9_999) : rng.int(3, 999), seconds, retry: i % 7 === 3 };
    });
    // A seconds-valued request and a retry line of a key that has requests, whatever the count.
    lines[0] = { ...lines[0]!, seconds: true, retry: false, ms: 2_500 };
    lines.push({ time: records[records.length - 1]!.time + 30, key: records[0]!.key, ms: 40, seconds: false, retry: true });
    return { files: [{ path: 'app.log', content: `${lines.map(writeLine).join('\n')}\n` }], answer: totalsPerKey(lines) };
  },
  task: (s) =>
    `\`DATA/app.log\` is an application log, one event per line: a time, a level, words, then \`name=value\` fields separated by spaces. Request lines carry a field named exactly \`key\` (${a(s.nouns.key)}) and a \`dur\` field, a duration written either in milliseconds (\`dur=250ms\`) or in seconds (\`dur=1.25s\`, \`dur=2s\`). Other lines may carry fields whose names merely end in \`key\` (such as \`retry_key\`); they are not requests. Total the durations of the request lines per ${s.nouns.key} in milliseconds. Write one line per ${s.nouns.key} to OUT: the ${s.nouns.key}, a space, and its total as an integer number of milliseconds; lines sorted by ${s.nouns.key} in byte order.`,
  solve: () => regexPython('(?:^| )key=(\\S+)', 'both'),
  nearMisses: () => [
    {
      name: 'milliseconds-only',
      why: 'matches only `dur=<n>ms`, dropping the durations written in seconds',
      solve: regexPython('(?:^| )key=(\\S+)', 'ms-only'),
    },
    {
      name: 'seconds-read-as-ms',
      why: 'reads the number of a seconds-valued duration as milliseconds',
      solve: regexPython('(?:^| )key=(\\S+)', 'unit-ignored'),
    },
    { name: 'unanchored-key', why: 'matches `key=` anywhere, so `retry_key=` lines count as requests', solve: regexPython('key=(\\S+)', 'both') },
  ],
};

function regexPython(keyPattern: string, units: 'both' | 'ms-only' | 'unit-ignored'): string {
  const duration = units === 'ms-only' ? 'dur=(\\d+)(ms)(?: |$)' : 'dur=(\\d+(?:\\.\\d+)?)(ms|s)(?: |$)';
  const ms = units === 'both' ? 'round(float(number) * (1 if unit == "ms" else 1000))' : 'round(float(number))';
  return [
    `python3 - "$d/app.log" > "$out" <<'PY'`,
    `import re, sys`,
    `totals = {}`,
    `for line in open(sys.argv[1]):`,
    `    key, dur = re.search(r"${keyPattern}", line), re.search(r"${duration}", line)`,
    `    if key and dur:`,
    `        number, unit = dur.groups()`,
    `        totals[key.group(1)] = totals.get(key.group(1), 0) + ${ms}`,
    `for key in sorted(totals):`,
    `    print(key, totals[key])`,
    `PY`,
  ].join('\n');
}
