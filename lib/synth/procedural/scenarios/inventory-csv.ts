// Warehouse inventory counts. Rule: draft counts were never confirmed.
import { isoTime } from '../records.ts';
import { defineScenario, distinctKeys, flaggedRows, lines } from '../scenario.ts';

export const inventoryCsv = defineScenario({
  name: 'inventory-csv',
  title: 'Warehouse inventory counts',
  fileName: 'inventory.csv',
  format:
    'semicolon-separated CSV with the header `sku;quantity;counted_at;warehouse;description;status`; times are ISO 8601 UTC, status is `final` or `draft`.',
  nouns: { record: 'stock count', records: 'stock counts', key: 'SKU', value: 'quantity', time: 'count time', category: 'warehouse', text: 'description' },
  columns: { key: 'sku', value: 'quantity', time: 'counted_at', category: 'warehouse', text: 'description' },
  value: { decimals: 0, min: 1, max: 2_500 },
  categories: ['WH-North', 'WH-South', 'WH-East', 'WH-Central'],
  texts: ['steel-bolt-m8', 'cable-tie', 'hinge-brass', 'washer-10mm', 'drill-bit-6mm', 'wall-plug'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `SKU-${r.int(10000, 99999)}`),
  rule: {
    name: 'draft-counts-excluded',
    describe: 'A count whose status is `draft` was never confirmed: it does not count as a stock count for any question of this step; only `final` counts do.',
    column: 'status',
    columnMeaning: '`final` or `draft`',
    ...flaggedRows('final', 'draft'),
  },
  renderRows: (rows) =>
    lines([
      'sku;quantity;counted_at;warehouse;description;status',
      ...rows.map((r) => [r.key, r.value, isoTime(r.time), r.category, r.text, r.attr].join(';')),
    ]),
  parse: `tail -n +2 | awk -F';' -v OFS='\\t' '{print $1,$2,$3,$4,$5,$6}'`,
});
