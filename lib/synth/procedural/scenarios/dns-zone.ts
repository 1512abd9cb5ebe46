import { isoTime } from '../records.ts';
import { distinctKeys, lines, type Scenario } from '../scenario.ts';

export const dnsZone: Scenario = {
  name: 'dns-zone',
  title: 'DNS zone file',
  fileName: 'example.test.zone',
  format: 'a BIND zone file: `$ORIGIN`/`$TTL` directives, then one record per line: `NAME TTL IN TYPE RDATA ; updated ISO_TIME`.',
  nouns: {
    record: 'resource record',
    records: 'resource records',
    key: 'owner name',
    value: 'TTL in seconds',
    time: 'update time',
    category: 'record type',
    text: 'record data',
  },
  columns: { key: 'name', value: 'ttl', time: 'updated', category: 'type', text: 'rdata' },
  value: { decimals: 0, min: 60, max: 86_400 },
  categories: ['A', 'AAAA', 'CNAME', 'TXT', 'MX'],
  texts: ['edge-1.example.test.', 'edge-2.example.test.', '198.51.100.7', '2001:db8::7', 'v=spf1-mx', 'mx1.example.test.'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `${r.pick(['www', 'mail', 'api', 'cdn', 'vpn', 'db', 'git', 'auth'])}${r.int(1, 9)}`),
  render: (records) =>
    lines(['$ORIGIN example.test.', '$TTL 3600', ...records.map((r) => `${r.key} ${r.value} IN ${r.category} ${r.text} ; updated ${isoTime(r.time)}`)]),
  extract: `awk -v OFS='\\t' '$3=="IN"{print $1,$2,$8,$4,$5}'`,
};
