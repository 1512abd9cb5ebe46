import { isoTime } from '../records.ts';
import { distinctKeys, lines, type Scenario } from '../scenario.ts';

export const authSyslog: Scenario = {
  name: 'auth-syslog',
  title: 'SSH authentication log',
  fileName: 'auth.log',
  format: 'syslog lines with ISO 8601 timestamps: `TIME bastion sshd[PID]: EVENT for USER from SOURCE port PORT`.',
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
  render: (records) =>
    lines(records.map((r, i) => `${isoTime(r.time)} bastion sshd[${2000 + i * 7}]: ${r.category} for ${r.key} from ${r.text} port ${r.value}`)),
  extract: `awk -v OFS='\\t' '{print $6,$10,$1,$4,$8}'`,
};
