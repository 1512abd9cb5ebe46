// Web server access log (Apache combined format). Rule: requests from the Kubernetes liveness
// probe are health checks, not traffic.
import { isoTime } from '../records.ts';
import { AWK_MONTHS, defineScenario, distinctKeys, keepWhere, lines, pickFor, weaveGhosts } from '../scenario.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const BROWSERS = ['Mozilla/5.0 (X11; Linux x86_64)', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2)', 'curl/8.5.0', 'Mozilla/5.0 (Windows NT 10.0)'];
const PROBE = 'kube-probe/1.29';

// 05/Mar/2024:10:20:30 +0000, the time format of the combined log.
function clfTime(seconds: number): string {
  const [date, clock] = isoTime(seconds).slice(0, -1).split('T') as [string, string];
  const [year, month, day] = date.split('-');
  return `${day}/${MONTHS[Number(month) - 1]}/${year}:${clock} +0000`;
}

export const webAccessLog = defineScenario({
  name: 'web-access-log',
  title: 'Web server access log',
  fileName: 'access.log',
  format:
    'Apache combined log format, one request per line: `IP - - [DD/Mon/YYYY:HH:MM:SS +0000] "GET /PATH HTTP/1.1" STATUS BYTES "-" "USER_AGENT"` (the user agent may contain spaces).',
  nouns: {
    record: 'request',
    records: 'requests',
    key: 'client IP',
    value: 'response size in bytes',
    time: 'request time',
    category: 'HTTP status',
    text: 'request path (without its leading slash)',
  },
  columns: { key: 'client_ip', value: 'bytes', time: 'time', category: 'status', text: 'path' },
  value: { decimals: 0, min: 1, max: 60_000 },
  categories: ['200', '201', '204', '301', '304', '400', '403', '404', '500', '503'],
  texts: ['api-orders', 'login', 'static-app.js', 'health', 'search', 'cart-checkout', 'img-logo.png', 'api-users'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `${r.pick(['10.0.0', '192.0.2', '198.51.100', '203.0.113'])}.${r.int(2, 250)}`),
  rule: {
    name: 'liveness-probes-excluded',
    describe: `Requests whose user agent starts with \`kube-probe/\` are the cluster's liveness probes, not traffic: they do not count as requests for any question of this step.`,
    columnMeaning: 'the user agent',
    column: 'user_agent',
    weave: (records, value) =>
      weaveGhosts(
        records,
        value,
        (r) => pickFor(r, BROWSERS, 'browser'),
        (ghost) => [{ ...ghost, attr: PROBE }],
      ),
    filter: keepWhere(`$6 !~ /^kube-probe\\//`),
  },
  renderRows: (rows) => lines(rows.map((r) => `${r.key} - - [${clfTime(r.time)}] "GET /${r.text} HTTP/1.1" ${r.category} ${r.value} "-" "${r.attr}"`)),
  parse: `awk -v OFS='\\t' 'BEGIN{${AWK_MONTHS}} {split(substr($4,2),a,/[\\/:]/); p=substr($7,2); u=$0; sub(/^.*" "/,"",u); sub(/"$/,"",u); print $1,$10,a[3]"-"M[a[2]]"-"a[1]"T"a[4]":"a[5]":"a[6]"Z",$9,p,u}'`,
});
