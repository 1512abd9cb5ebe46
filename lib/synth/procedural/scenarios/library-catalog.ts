// Library acquisitions catalogue. Rule: withdrawn copies have left the collection.
import { isoTime } from '../records.ts';
import { defineScenario, distinctKeys, flaggedRows, lines } from '../scenario.ts';

export const libraryCatalog = defineScenario({
  name: 'library-catalog',
  title: 'Library acquisitions catalogue',
  fileName: 'catalog.psv',
  format: 'pipe-separated with the header `isbn|copies|acquired|genre|title|status`; times are ISO 8601 UTC, status is `shelved` or `withdrawn`.',
  nouns: {
    record: 'acquisition',
    records: 'acquisitions',
    key: 'ISBN',
    value: 'number of copies',
    time: 'acquisition time',
    category: 'genre',
    text: 'title slug',
  },
  columns: { key: 'isbn', value: 'copies', time: 'acquired', category: 'genre', text: 'title' },
  value: { decimals: 0, min: 1, max: 40 },
  categories: ['fiction', 'history', 'science', 'poetry', 'reference'],
  texts: ['the-silent-sea', 'atlas-of-rivers', 'quiet-numbers', 'salt-and-iron', 'field-guide', 'night-letters'],
  makeKeys: (rng) => distinctKeys(rng, 8, (r) => `978-${r.int(0, 1)}-${r.int(100, 999)}-${r.int(10000, 99999)}-${r.int(0, 9)}`),
  rule: {
    name: 'withdrawn-excluded',
    describe: 'An acquisition whose status is `withdrawn` has left the collection: it does not count as an acquisition for any question of this step.',
    column: 'status',
    columnMeaning: '`shelved` or `withdrawn`',
    ...flaggedRows('shelved', 'withdrawn'),
  },
  renderRows: (rows) =>
    lines(['isbn|copies|acquired|genre|title|status', ...rows.map((r) => [r.key, r.value, isoTime(r.time), r.category, r.text, r.attr].join('|'))]),
  parse: `tail -n +2 | awk -F'|' -v OFS='\\t' '{print $1,$2,$3,$4,$5,$6}'`,
});
