import { formatValue, isoTime } from '../records.ts';
import { distinctKeys, lines, pad, type Scenario } from '../scenario.ts';

export const httpApiTraces: Scenario = {
  name: 'http-api-traces',
  title: 'HTTP API trace spans',
  fileName: 'spans.tsv',
  format: 'tab-separated with the header `span_id\tservice\tduration_ms\tstart\tstatus\troute`; durations have two decimals.',
  nouns: { record: 'span', records: 'spans', key: 'service', value: 'duration in ms', time: 'start time', category: 'status', text: 'route' },
  columns: { key: 'service', value: 'duration_ms', time: 'start', category: 'status', text: 'route' },
  value: { decimals: 2, min: 100, max: 250_000 },
  categories: ['OK', 'ERROR', 'TIMEOUT', 'CANCELLED'],
  texts: ['orders.list', 'orders.create', 'users.get', 'cart.update', 'search.query', 'auth.refresh'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `${r.pick(['checkout', 'auth', 'catalog', 'billing', 'search', 'gateway'])}-${r.pick(['svc', 'api', 'v2'])}`),
  render: (records) =>
    lines([
      'span_id\tservice\tduration_ms\tstart\tstatus\troute',
      ...records.map((r, i) => [`span-${pad(i + 1, 4)}`, r.key, formatValue(r.value, 2), isoTime(r.time), r.category, r.text].join('\t')),
    ]),
  extract: `tail -n +2 | awk -F'\\t' -v OFS='\\t' '{print $2,$3,$4,$5,$6}'`,
};
