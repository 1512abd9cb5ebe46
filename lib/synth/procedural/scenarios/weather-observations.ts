// Weather station observations. Rule: observations that failed quality control are suspect.
import { formatValue, isoTime } from '../records.ts';
import { defineScenario, distinctKeys, keepWhere, lines, weaveGhosts } from '../scenario.ts';

export const weatherObservations = defineScenario({
  name: 'weather-observations',
  title: 'Weather station observations',
  fileName: 'observations.txt',
  format:
    'whitespace-aligned columns under the header `STATION OBSERVED PRECIP_MM SKY REMARK QC`; precipitation has two decimals, times are ISO 8601 UTC, QC is `V` (verified) or `S` (suspect).',
  nouns: {
    record: 'observation',
    records: 'observations',
    key: 'station',
    value: 'precipitation in mm',
    time: 'observation time',
    category: 'sky condition',
    text: 'remark',
  },
  columns: { key: 'station', value: 'precip_mm', time: 'observed', category: 'sky', text: 'remark' },
  value: { decimals: 2, min: 100, max: 8_000 },
  categories: ['CLR', 'FEW', 'SCT', 'BKN', 'OVC'],
  texts: ['gusty', 'fog-patches', 'hail', 'calm', 'thunder', 'drizzle'],
  makeKeys: (rng) =>
    distinctKeys(rng, 8, (r) => `${r.pick(['K', 'E', 'L', 'Y'])}${String.fromCharCode(65 + r.int(0, 25), 65 + r.int(0, 25), 65 + r.int(0, 25))}`),
  rule: {
    name: 'suspect-observations-excluded',
    describe:
      'An observation whose QC flag is `S` failed quality control: it does not count as an observation for any question of this step; only `V` (verified) ones do.',
    column: 'qc',
    columnMeaning: '`V` or `S`',
    weave: (records, value) =>
      weaveGhosts(
        records,
        value,
        () => 'V',
        (ghost) => [{ ...ghost, attr: 'S' }],
      ),
    filter: keepWhere('$6 == "V"'),
  },
  renderRows: (rows) =>
    lines([
      'STATION  OBSERVED              PRECIP_MM  SKY   REMARK       QC',
      ...rows.map(
        (r) => `${r.key.padEnd(8)} ${isoTime(r.time)} ${formatValue(r.value, 2).padStart(10)}  ${r.category.padEnd(5)} ${r.text.padEnd(12)} ${r.attr}`,
      ),
    ]),
  parse: `tail -n +2 | awk -v OFS='\\t' '{print $1,$3,$2,$4,$5,$6}'`,
});
