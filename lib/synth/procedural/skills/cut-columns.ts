// A pipe-separated export whose column order is shuffled, so positions must be read off the header.
// The order never lets the canonical positions (key first, category fourth) give the right count,
// and two rows of the category share a key, so counting rows instead of distinct keys shows.
import { isoTime, type DataRecord } from '../records.ts';
import { show, type Skill } from '../skill.ts';
import { ensureCount } from './traps.ts';

const FIELDS = ['key', 'value', 'time', 'category', 'text'] as const;
type Field = (typeof FIELDS)[number];

const select = (keyCol: string, catCol: string, category: string, distinct: boolean): string =>
  [
    `paste -d'|' <(tail -n +2 "$d/export.psv" | cut -d'|' -f${catCol}) <(tail -n +2 "$d/export.psv" | cut -d'|' -f${keyCol}) |`,
    `  awk -F'|' -v c='${category}' '$1 == c { print $2 }' | ${distinct ? 'sort -u | ' : ''}wc -l > "$out"`,
  ].join('\n');

const header = (column: string, variable: string): string => `${variable}=$(head -n 1 "$d/export.psv" | tr '|' '\\n' | grep -nx '${column}' | cut -d: -f1)`;

export const cutColumns: Skill = {
  name: 'cut-columns',
  title: 'column extraction with cut',
  answersInteger: true,
  exportsColumns: true,
  materialise: ({ scenario, params, rng, records }) => {
    ensureCount(rng, records, 'category', params.category, 2);
    const mine = records.filter((r) => r.category === params.category);
    mine[1]!.key = mine[0]!.key;
    const cell = (r: DataRecord, f: Field): string => (f === 'value' ? show(scenario, r.value) : f === 'time' ? isoTime(r.time) : r[f]);
    const distinctAt = (keyAt: Field, categoryAt: Field): number =>
      new Set(records.filter((r) => cell(r, categoryAt) === params.category).map((r) => cell(r, keyAt))).size;
    const answer = distinctAt('key', 'category');
    let fields = rng.shuffle(FIELDS);
    for (let guard = 0; distinctAt(fields[0]!, fields[3]!) === answer && guard < 50; guard++) fields = rng.shuffle(FIELDS);
    const c = scenario.columns;
    const rows = [fields.map((f) => c[f]).join('|'), ...records.map((r) => fields.map((f) => cell(r, f)).join('|'))];
    return { files: [{ path: 'export.psv', content: `${rows.join('\n')}\n` }], answer: String(answer) };
  },
  task: (s, p) =>
    `\`DATA/export.psv\` is a pipe-separated export of ${s.nouns.records}; its header row names the columns (\`${s.columns.key}\` is the ${s.nouns.key}, \`${s.columns.category}\` the ${s.nouns.category}) but their order is not fixed. Count the distinct values of \`${s.columns.key}\` among rows whose \`${s.columns.category}\` is \`${p.category}\`. Write the count to OUT.`,
  solve: (s, p) => [header(s.columns.key, 'key_col'), header(s.columns.category, 'cat_col'), select('"$key_col"', '"$cat_col"', p.category, true)].join('\n'),
  nearMisses: (s, p) => [
    { name: 'fixed-column-order', why: 'assumes the usual column order instead of reading the header', solve: select('1', '4', p.category, true) },
    {
      name: 'rows-not-distinct',
      why: `counts matching rows, so a ${s.nouns.key} with several rows counts more than once`,
      solve: [header(s.columns.key, 'key_col'), header(s.columns.category, 'cat_col'), select('"$key_col"', '"$cat_col"', p.category, false)].join('\n'),
    },
  ],
};
