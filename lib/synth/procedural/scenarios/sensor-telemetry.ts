import { formatValue } from '../records.ts';
import { distinctKeys, lines, pad, type Scenario } from '../scenario.ts';

export const sensorTelemetry: Scenario = {
  name: 'sensor-telemetry',
  title: 'Sensor telemetry',
  fileName: 'telemetry.jsonl',
  format: 'JSON Lines, one reading per line: `{"sensor": ID, "reading": NUMBER, "ts": UNIX_SECONDS, "status": STATUS, "note": TEXT}`.',
  nouns: { record: 'reading', records: 'readings', key: 'sensor id', value: 'reading', time: 'reading time', category: 'status', text: 'note' },
  columns: { key: 'sensor', value: 'reading', time: 'ts', category: 'status', text: 'note' },
  value: { decimals: 2, min: 100, max: 9_999 },
  categories: ['ok', 'warn', 'fault', 'calibrating'],
  texts: ['steady', 'spike', 'drift', 'battery-low', 'recovered', 'noisy'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `${r.pick(['th', 'pr', 'hu'])}-${pad(r.int(1, 99), 2)}`),
  render: (records) =>
    lines(records.map((r) => `{"sensor": "${r.key}", "reading": ${formatValue(r.value, 2)}, "ts": ${r.time}, "status": "${r.category}", "note": "${r.text}"}`)),
  extract: `jq -r '[.sensor, .reading, (.ts | todate), .status, .note] | @tsv'`,
};
