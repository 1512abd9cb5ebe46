import { isoTime } from '../records.ts';
import { AWK_MONTHS, distinctKeys, lines, type Scenario } from '../scenario.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// 05/Mar/2024:10:20:30 +0000, the time format of the combined log.
function clfTime(seconds: number): string {
  const [date, clock] = isoTime(seconds).slice(0, -1).split('T') as [string, string];
  const [year, month, day] = date.split('-');
  return `${day}/${MONTHS[Number(month) - 1]}/${year}:${clock} +0000`;
}

export const webAccessLog: Scenario = {
  name: 'web-access-log',
  title: 'Web server access log',
  fileName: 'access.log',
  format: 'Apache combined log format, one request per line: `IP - - [DD/Mon/YYYY:HH:MM:SS +0000] "GET /PATH HTTP/1.1" STATUS BYTES "-" "Mozilla/5.0"`.',
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
  render: (records) => lines(records.map((r) => `${r.key} - - [${clfTime(r.time)}] "GET /${r.text} HTTP/1.1" ${r.category} ${r.value} "-" "Mozilla/5.0"`)),
  extract: `awk -v OFS='\\t' 'BEGIN{${AWK_MONTHS}} {split(substr($4,2),a,/[\\/:]/); p=substr($7,2); print $1,$10,a[3]"-"M[a[2]]"-"a[1]"T"a[4]":"a[5]":"a[6]"Z",$9,p}'`,
};
