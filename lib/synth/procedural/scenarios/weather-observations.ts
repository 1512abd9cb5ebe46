import { formatValue, isoTime } from '../records.ts';
import { distinctKeys, lines, type Scenario } from '../scenario.ts';

export const weatherObservations: Scenario = {
  name: 'weather-observations',
  title: 'Weather station observations',
  fileName: 'observations.txt',
  format: 'whitespace-aligned columns under the header `STATION OBSERVED PRECIP_MM SKY REMARK`; precipitation has two decimals, times are ISO 8601 UTC.',
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
  render: (records) =>
    lines([
      'STATION  OBSERVED              PRECIP_MM  SKY   REMARK',
      ...records.map((r) => `${r.key.padEnd(8)} ${isoTime(r.time)} ${formatValue(r.value, 2).padStart(10)}  ${r.category.padEnd(5)} ${r.text}`),
    ]),
  extract: `tail -n +2 | awk -v OFS='\\t' '{print $1,$3,$2,$4,$5}'`,
};
