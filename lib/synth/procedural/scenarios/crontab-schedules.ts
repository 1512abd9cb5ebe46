// System crontab. Rule: a commented-out job does not run.
import { isoTime } from '../records.ts';
import { defineScenario, distinctKeys, flaggedRows, lines } from '../scenario.ts';

export const crontabSchedules = defineScenario({
  name: 'crontab-schedules',
  title: 'System crontab',
  fileName: 'crontab',
  format:
    'a system crontab: each job is a comment `# owner=TEAM added=ISO_TIME budget=SECONDS` followed by `MIN HOUR * * * USER /opt/jobs/JOB`; a job line may itself be commented out with a leading `#`.',
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
  rule: {
    name: 'commented-jobs-excluded',
    describe: 'A job whose schedule line is commented out (starts with `#`) does not run: it does not count as a cron job for any question of this step.',
    column: 'state',
    columnMeaning: '`active`, or `commented` for a job line commented out',
    ...flaggedRows('active', 'commented'),
  },
  renderRows: (rows) =>
    lines([
      'SHELL=/bin/bash',
      ...rows.map((r) => {
        const iso = isoTime(r.time);
        const job = `${Number(iso.slice(14, 16))} ${Number(iso.slice(11, 13))} * * * ${r.key} /opt/jobs/${r.text}`;
        return `# owner=${r.category} added=${iso} budget=${r.value}\n${r.attr === 'commented' ? '#' : ''}${job}`;
      }),
    ]),
  parse: `awk -v OFS='\\t' '/^# owner=/{split($2,a,"="); split($3,b,"="); split($4,d,"="); next} {s="active"} /^#[0-9]/{sub(/^#/,""); s="commented"} NF>=7{x=$7; sub(/^\\/opt\\/jobs\\//,"",x); print $6,d[2],b[2],a[2],x,s}'`,
});
