// SSH authentication log merged from two hosts. Rule: only the production bastion's events count.
import { isoTime } from '../records.ts';
import { defineScenario, distinctKeys, keepWhere, lines, weaveGhosts } from '../scenario.ts';

export const authSyslog = defineScenario({
  name: 'auth-syslog',
  title: 'SSH authentication log',
  fileName: 'auth.log',
  format: 'syslog lines with ISO 8601 timestamps: `TIME HOST sshd[PID]: EVENT for USER from SOURCE port PORT`.',
  nouns: {
    record: 'authentication event',
    records: 'authentication events',
    key: 'user',
    value: 'source port',
    time: 'event time',
    category: 'event',
    text: 'source host',
  },
  columns: { key: 'user', value: 'port', time: 'time', category: 'event', text: 'source' },
  value: { decimals: 0, min: 1_024, max: 65_000 },
  categories: ['Accepted-password', 'Failed-password', 'Invalid-user', 'Accepted-publickey'],
  texts: ['vpn-gw', 'office-nat', 'ci-runner', 'home-isp', 'cloud-shell', 'jump-2'],
  makeKeys: (rng) =>
    distinctKeys(rng, 8, (r) => `${r.pick(['root', 'deploy', 'admin', 'git', 'backup', 'ubuntu', 'oracle', 'test'])}${r.pick(['', '1', '2', '-ops'])}`),
  rule: {
    name: 'staging-host-excluded',
    describe:
      'The file merges the logs of two hosts: only events of the host `bastion` count; lines from `bastion-staging` replay test traffic and do not count as authentication events for any question of this step.',
    column: 'host',
    columnMeaning: '`bastion` or `bastion-staging`',
    weave: (records, value) =>
      weaveGhosts(
        records,
        value,
        () => 'bastion',
        (ghost) => [{ ...ghost, attr: 'bastion-staging' }],
      ),
    filter: keepWhere('$6 == "bastion"'),
  },
  renderRows: (rows) =>
    lines(rows.map((r, i) => `${isoTime(r.time)} ${r.attr} sshd[${2000 + i * 7}]: ${r.category} for ${r.key} from ${r.text} port ${r.value}`)),
  parse: `awk -v OFS='\\t' '{print $6,$10,$1,$4,$8,$2}'`,
});
