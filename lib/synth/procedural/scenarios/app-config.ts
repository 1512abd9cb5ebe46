import { isoTime } from '../records.ts';
import { distinctKeys, pad, type Scenario } from '../scenario.ts';

export const appConfig: Scenario = {
  name: 'app-config',
  title: 'Application feature-flag config',
  fileName: 'flags.ini',
  format: 'INI: one section `[entry-NNN]` per entry with `name = `, `weight = `, `updated = ` (ISO 8601 UTC), `profile = ` and `note = ` keys in that order.',
  nouns: { record: 'flag entry', records: 'flag entries', key: 'flag name', value: 'weight', time: 'update time', category: 'profile', text: 'note' },
  columns: { key: 'name', value: 'weight', time: 'updated', category: 'profile', text: 'note' },
  value: { decimals: 0, min: 1, max: 1_000 },
  categories: ['production', 'staging', 'canary', 'dev'],
  texts: ['rollout', 'kill-switch', 'experiment', 'migration', 'legacy', 'beta'],
  makeKeys: (rng) =>
    distinctKeys(rng, 8, (r) => `${r.pick(['feature', 'ui', 'api', 'billing'])}.${r.pick(['search', 'dark-mode', 'v2', 'cache', 'export', 'sso'])}`),
  render: (records) =>
    records
      .map(
        (r, i) => `[entry-${pad(i + 1, 3)}]\nname = ${r.key}\nweight = ${r.value}\nupdated = ${isoTime(r.time)}\nprofile = ${r.category}\nnote = ${r.text}\n`,
      )
      .join('\n'),
  extract: `awk -F' = ' -v OFS='\\t' '/^name = /{k=$2} /^weight = /{v=$2} /^updated = /{t=$2} /^profile = /{c=$2} /^note = /{print k,v,t,c,$2}'`,
};
