// Application feature-flag config (INI). Rule: disabled entries are not in effect.
import { isoTime } from '../records.ts';
import { defineScenario, distinctKeys, flaggedRows, pad } from '../scenario.ts';

export const appConfig = defineScenario({
  name: 'app-config',
  title: 'Application feature-flag config',
  fileName: 'flags.ini',
  format:
    'INI: one section `[entry-NNN]` per entry with `name = `, `weight = `, `updated = ` (ISO 8601 UTC), `profile = `, `enabled = ` (`true` or `false`) and `note = ` keys in that order.',
  nouns: { record: 'flag entry', records: 'flag entries', key: 'flag name', value: 'weight', time: 'update time', category: 'profile', text: 'note' },
  columns: { key: 'name', value: 'weight', time: 'updated', category: 'profile', text: 'note' },
  value: { decimals: 0, min: 1, max: 1_000 },
  categories: ['production', 'staging', 'canary', 'dev'],
  texts: ['rollout', 'kill-switch', 'experiment', 'migration', 'legacy', 'beta'],
  makeKeys: (rng) =>
    distinctKeys(rng, 8, (r) => `${r.pick(['feature', 'ui', 'api', 'billing'])}.${r.pick(['search', 'dark-mode', 'v2', 'cache', 'export', 'sso'])}`),
  rule: {
    name: 'disabled-entries-excluded',
    describe: 'An entry with `enabled = false` is switched off: it does not count as a flag entry for any question of this step.',
    column: 'enabled',
    columnMeaning: '`true` or `false`',
    ...flaggedRows('true', 'false'),
  },
  renderRows: (rows) =>
    rows
      .map(
        (r, i) =>
          `[entry-${pad(i + 1, 3)}]\nname = ${r.key}\nweight = ${r.value}\nupdated = ${isoTime(r.time)}\nprofile = ${r.category}\nenabled = ${r.attr}\nnote = ${r.text}\n`,
      )
      .join('\n'),
  parse: `awk -F' = ' -v OFS='\\t' '/^name = /{k=$2} /^weight = /{v=$2} /^updated = /{t=$2} /^profile = /{c=$2} /^enabled = /{e=$2} /^note = /{print k,v,t,c,$2,e}'`,
});
