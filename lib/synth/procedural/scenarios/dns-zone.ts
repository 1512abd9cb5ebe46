// DNS zone file. Rule: a record commented out with `;` does not exist.
import { isoTime } from '../records.ts';
import { defineScenario, distinctKeys, flaggedRows, lines } from '../scenario.ts';

export const dnsZone = defineScenario({
  name: 'dns-zone',
  title: 'DNS zone file',
  fileName: 'example.test.zone',
  format:
    'a BIND zone file: `$ORIGIN`/`$TTL` directives, then one record per line: `NAME TTL IN TYPE RDATA ; updated ISO_TIME`; `;` starts a comment, also at the start of a line.',
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
  rule: {
    name: 'commented-records-excluded',
    describe:
      'A line that starts with `;` is a comment, including a record line someone commented out: such a record is not served and does not count as a resource record for any question of this step.',
    column: 'state',
    columnMeaning: '`active`, or `commented` for a record line commented out',
    ...flaggedRows('active', 'commented'),
  },
  renderRows: (rows) =>
    lines([
      '$ORIGIN example.test.',
      '$TTL 3600',
      ...rows.map((r) => `${r.attr === 'commented' ? ';' : ''}${r.key} ${r.value} IN ${r.category} ${r.text} ; updated ${isoTime(r.time)}`),
    ]),
  parse: `awk -v OFS='\\t' '{ c = "active"; line = $0; if (sub(/^;/, "", line)) c = "commented"; n = split(line, f, " ") } n >= 8 && f[3] == "IN" { print f[1], f[2], f[8], f[4], f[5], c }'`,
});
