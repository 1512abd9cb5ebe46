import { isoTime } from '../records.ts';
import { distinctKeys, lines, type Scenario } from '../scenario.ts';

export const libraryCatalog: Scenario = {
  name: 'library-catalog',
  title: 'Library acquisitions catalogue',
  fileName: 'catalog.psv',
  format: 'pipe-separated with the header `isbn|copies|acquired|genre|title`; times are ISO 8601 UTC.',
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
  render: (records) => lines(['isbn|copies|acquired|genre|title', ...records.map((r) => [r.key, r.value, isoTime(r.time), r.category, r.text].join('|'))]),
  extract: `tail -n +2 | awk -F'|' -v OFS='\\t' '{print $1,$2,$3,$4,$5}'`,
};
