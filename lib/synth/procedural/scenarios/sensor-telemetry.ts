// Sensor telemetry (JSON Lines). Rule: readings the sensor's self-check flagged invalid are dropped.
import { formatValue } from '../records.ts';
import { defineScenario, distinctKeys, flaggedRows, lines, pad } from '../scenario.ts';

export const sensorTelemetry = defineScenario({
  name: 'sensor-telemetry',
  title: 'Sensor telemetry',
  fileName: 'telemetry.jsonl',
  format: 'JSON Lines, one reading per line: `{"sensor": ID, "reading": NUMBER, "ts": UNIX_SECONDS, "status": STATUS, "note": TEXT, "valid": BOOLEAN}`.',
  nouns: { record: 'reading', records: 'readings', key: 'sensor id', value: 'reading', time: 'reading time', category: 'status', text: 'note' },
  columns: { key: 'sensor', value: 'reading', time: 'ts', category: 'status', text: 'note' },
  value: { decimals: 2, min: 100, max: 9_999 },
  categories: ['ok', 'warn', 'fault', 'calibrating'],
  texts: ['steady', 'spike', 'drift', 'battery-low', 'recovered', 'noisy'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `${r.pick(['th', 'pr', 'hu'])}-${pad(r.int(1, 99), 2)}`),
  rule: {
    name: 'invalid-readings-dropped',
    describe: "A reading whose `valid` is `false` failed the sensor's self-check and is dropped: it does not count as a reading for any question of this step.",
    column: 'valid',
    columnMeaning: '`true` or `false`',
    ...flaggedRows('true', 'false'),
  },
  renderRows: (rows) =>
    lines(
      rows.map(
        (r) =>
          `{"sensor": "${r.key}", "reading": ${formatValue(r.value, 2)}, "ts": ${r.time}, "status": "${r.category}", "note": "${r.text}", "valid": ${r.attr}}`,
      ),
    ),
  parse: `jq -r '[.sensor, .reading, (.ts | todate), .status, .note, (.valid | tostring)] | @tsv'`,
});
