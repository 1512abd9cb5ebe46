// Helpers the data-shaping skills share: records placed at free times (times stay unique and the
// list chronological, as the scenarios render them), the native file, and the awk and TS views of
// a value in the scenario's smallest unit, so totals and comparisons are exact integers.
import { byteCompare, formatValue, isoTime, type DataRecord } from '../records.ts';
import type { Scenario } from '../scenario.ts';
import type { DataFile } from '../skill.ts';

export const nativeFile = (scenario: Scenario, records: DataRecord[]): DataFile => ({ path: scenario.fileName, content: scenario.render(records) });

// Sorts in place by time: the order every scenario file is written in.
export function chronological(records: DataRecord[]): DataRecord[] {
  return records.sort((a, b) => a.time - b.time);
}

// Adds a record at `time`, or at the next second no record holds, and keeps the list chronological.
export function addAt(records: DataRecord[], record: Omit<DataRecord, 'time'>, time: number): DataRecord {
  const taken = new Set(records.map((r) => r.time));
  let at = time;
  while (taken.has(at)) at++;
  const added = { ...record, time: at };
  records.push(added);
  chronological(records);
  return added;
}

// Removes in place every record matching `drop`.
export function removeWhere(records: DataRecord[], drop: (r: DataRecord) => boolean): void {
  for (let i = records.length - 1; i >= 0; i--) if (drop(records[i]!)) records.splice(i, 1);
}

// An awk expression for field `field` (a displayed value) in smallest units: integer arithmetic
// keeps ties and sums exact where the value has decimals.
export const awkUnits = (scenario: Scenario, field = '$2'): string => (scenario.value.decimals === 0 ? `(${field} + 0)` : `int(${field} * 100 + 0.5)`);
// An awk expression printing smallest units `expr` as the scenario displays values.
export const awkShow = (scenario: Scenario, expr: string): string =>
  scenario.value.decimals === 0 ? `sprintf("%d", ${expr})` : `sprintf("%d.%02d", int((${expr}) / 100), (${expr}) % 100)`;

export const showUnits = (scenario: Scenario, units: number): string => formatValue(units, scenario.value.decimals);
export const hourOf = (time: number): string => isoTime(time).slice(0, 13);
export const dayOf = (time: number): string => isoTime(time).slice(0, 10);
export const byName = (a: string, b: string): number => byteCompare(a, b);
export const distinctKeysOf = (records: DataRecord[]): string[] => [...new Set(records.map((r) => r.key))].sort(byName);

// The whole units of one display unit: 1, or 100 for values with two decimals.
export const unitScale = (scenario: Scenario): number => (scenario.value.decimals === 0 ? 1 : 100);

// A Python prologue reading `extract` output (the file named by its first argument) into rows of (key, units, epoch seconds,
// category, text), for fragments that compute in Python.
export const pythonRows = (scenario: Scenario): string[] => [
  'import sys, datetime',
  'def epoch(iso): return int(datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc).timestamp())',
  `def units(v): return ${scenario.value.decimals === 0 ? 'int(v)' : 'int(round(float(v) * 100))'}`,
  `def show(u): return ${scenario.value.decimals === 0 ? 'str(u)' : 'f"{u // 100}.{u % 100:02d}"'}`,
  'rows = []',
  'for line in open(sys.argv[1]):',
  '    k, v, t, c, x = line.rstrip("\\n").split("\\t")',
  '    rows.append((k, units(v), epoch(t), c, x))',
];

// "an account", "an HTTP status", "a user": the article render-step uses for the same nouns.
export function a(noun: string): string {
  return `${/^(?:[aeio]|u(?!s)|HTTP|SKU)/i.test(noun) ? 'an' : 'a'} ${noun}`;
}
export const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
