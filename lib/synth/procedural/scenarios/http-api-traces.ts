// HTTP API trace spans. Rule: only root spans count; a child span's time is already inside its parent's.
import { formatValue, isoTime, type FileRecord } from '../records.ts';
import { defineScenario, distinctKeys, keepWhere, lines, pad, weaveGhosts } from '../scenario.ts';

const spanId = (i: number) => `span-${pad(i + 1, 4)}`;

// A child span precedes its parent in the export (spans are written as they end): its attribute is
// the id of the row after it; a root span's is `-`.
function linked(rows: FileRecord[]): FileRecord[] {
  return rows.map((r, i) => ({ ...r, attr: r.attr === 'child' ? spanId(i + 1) : '-' }));
}

export const httpApiTraces = defineScenario({
  name: 'http-api-traces',
  title: 'HTTP API trace spans',
  fileName: 'spans.tsv',
  format:
    'tab-separated with the header `span_id\tservice\tduration_ms\tstart\tstatus\troute\tparent_span`; durations have two decimals, `parent_span` is empty for a root span.',
  nouns: { record: 'span', records: 'spans', key: 'service', value: 'duration in ms', time: 'start time', category: 'status', text: 'route' },
  columns: { key: 'service', value: 'duration_ms', time: 'start', category: 'status', text: 'route' },
  value: { decimals: 2, min: 100, max: 250_000 },
  categories: ['OK', 'ERROR', 'TIMEOUT', 'CANCELLED'],
  texts: ['orders.list', 'orders.create', 'users.get', 'cart.update', 'search.query', 'auth.refresh'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `${r.pick(['checkout', 'auth', 'catalog', 'billing', 'search', 'gateway'])}-${r.pick(['svc', 'api', 'v2'])}`),
  rule: {
    name: 'child-spans-excluded',
    describe:
      "Only root spans (empty `parent_span`) count: a child span's time is already part of its parent's, so it does not count as a span for any question of this step.",
    column: 'parent_span',
    columnMeaning: 'the parent span id, `-` for a root span',
    weave: (records, value) =>
      linked(
        weaveGhosts(
          records,
          value,
          () => 'root',
          (ghost) => [{ ...ghost, attr: 'child' }],
        ),
      ),
    filter: keepWhere('$6 == "-"'),
  },
  renderRows: (rows) =>
    lines([
      'span_id\tservice\tduration_ms\tstart\tstatus\troute\tparent_span',
      ...rows.map((r, i) => [spanId(i), r.key, formatValue(r.value, 2), isoTime(r.time), r.category, r.text, r.attr === '-' ? '' : r.attr].join('\t')),
    ]),
  parse: `tail -n +2 | awk -F'\\t' -v OFS='\\t' '{print $2,$3,$4,$5,$6,($7 == "" ? "-" : $7)}'`,
});
