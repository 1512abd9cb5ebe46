import { isoTime } from '../records.ts';
import { distinctKeys, lines, type Scenario } from '../scenario.ts';

export const crontabSchedules: Scenario = {
  name: 'crontab-schedules',
  title: 'System crontab',
  fileName: 'crontab',
  format: 'a system crontab: each job is a comment `# owner=TEAM added=ISO_TIME budget=SECONDS` followed by `MIN HOUR * * * USER /opt/jobs/JOB`.',
  nouns: {
    record: 'cron job',
    records: 'cron jobs',
    key: 'run-as user',
    value: 'time budget in seconds',
    time: 'time it was added',
    category: 'owning team',
    text: 'job name (after /opt/jobs/)',
  },
  columns: { key: 'user', value: 'budget', time: 'added', category: 'owner', text: 'job' },
  value: { decimals: 0, min: 5, max: 3_600 },
  categories: ['ops', 'data', 'web', 'sec'],
  texts: ['rotate-logs', 'vacuum-db', 'sync-mirror', 'renew-certs', 'prune-cache', 'backup-home'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `svc-${r.pick(['backup', 'etl', 'www', 'mon', 'mail', 'ldap', 'ci', 'dns'])}${r.int(1, 5)}`),
  render: (records) =>
    lines([
      'SHELL=/bin/bash',
      ...records.map((r) => {
        const iso = isoTime(r.time);
        return `# owner=${r.category} added=${iso} budget=${r.value}\n${Number(iso.slice(14, 16))} ${Number(iso.slice(11, 13))} * * * ${r.key} /opt/jobs/${r.text}`;
      }),
    ]),
  extract: `awk -v OFS='\\t' '/^# owner=/{split($2,a,"="); split($3,b,"="); split($4,d,"="); next} NF>=7{x=$7; sub(/^\\/opt\\/jobs\\//,"",x); print $6,d[2],b[2],a[2],x}'`,
};
