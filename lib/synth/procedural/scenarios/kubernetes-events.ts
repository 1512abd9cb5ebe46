// Kubernetes events (JSON Lines). Rule: only Warning events count; Normal events are routine.
import { isoTime } from '../records.ts';
import { defineScenario, distinctKeys, keepWhere, lines, weaveGhosts } from '../scenario.ts';

export const kubernetesEvents = defineScenario({
  name: 'kubernetes-events',
  title: 'Kubernetes events',
  fileName: 'events.jsonl',
  format:
    'JSON Lines of Kubernetes events: `{"type": "Warning"|"Normal", "involvedObject": {"kind": "Pod", "name": POD}, "count": N, "lastTimestamp": ISO_TIME, "reason": REASON, "message": TEXT}`.',
  nouns: {
    record: 'event',
    records: 'events',
    key: 'pod name (involvedObject.name)',
    value: 'count',
    time: 'lastTimestamp',
    category: 'reason',
    text: 'message',
  },
  columns: { key: 'pod', value: 'count', time: 'lastTimestamp', category: 'reason', text: 'message' },
  value: { decimals: 0, min: 1, max: 500 },
  categories: ['BackOff', 'OOMKilled', 'Scheduled', 'Pulled', 'Unhealthy', 'FailedMount'],
  texts: ['probe-failed', 'image-pulled', 'volume-timeout', 'container-restarted', 'node-pressure', 'assigned'],
  makeKeys: (rng) =>
    distinctKeys(rng, 8, (r) => `${r.pick(['api', 'web', 'worker', 'redis', 'etl'])}-${r.int(100, 999).toString(16)}-${r.pick(['x2', 'k9', 'p4', 'z7'])}`),
  rule: {
    name: 'normal-events-excluded',
    describe: 'Only events of `type` `Warning` count; `Normal` events are routine and do not count as events for any question of this step.',
    column: 'type',
    columnMeaning: '`Warning` or `Normal`',
    weave: (records, value) =>
      weaveGhosts(
        records,
        value,
        () => 'Warning',
        (ghost) => [{ ...ghost, attr: 'Normal' }],
      ),
    filter: keepWhere('$6 == "Warning"'),
  },
  renderRows: (rows) =>
    lines(
      rows.map(
        (r) =>
          `{"type": "${r.attr}", "involvedObject": {"kind": "Pod", "name": "${r.key}"}, "count": ${r.value}, "lastTimestamp": "${isoTime(r.time)}", "reason": "${r.category}", "message": "${r.text}"}`,
      ),
    ),
  parse: `jq -r '[.involvedObject.name, .count, .lastTimestamp, .reason, .message, .type] | @tsv'`,
});
