// SQL with GROUP BY and HAVING over a database whose columns are stored as text (as a CSV import
// leaves them). One qualifying key's values differ in digit count, so MAX over the text picks the
// wrong one; another key has enough records overall but too few of the category, so a HAVING that
// counts all of a key's records lets it in.
import { isoTime, type DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { addAt, byName, showUnits, unitScale } from './shaping.ts';

export function maxPerQualifyingKey(records: DataRecord[], category: string, atLeast: number): [string, number][] {
  const values = new Map<string, number[]>();
  for (const r of records.filter((x) => x.category === category)) values.set(r.key, [...(values.get(r.key) ?? []), r.value]);
  return [...values]
    .filter(([, v]) => v.length >= atLeast)
    .map(([k, v]): [string, number] => [k, Math.max(...v)])
    .sort((a, b) => byName(a[0], b[0]));
}

export const sqlHavingSkill: Skill = {
  name: 'sql-having',
  title: 'SQL GROUP BY and HAVING in sqlite3',
  exportsColumns: true,
  buildsData: true,
  materialise: ({ scenario, params, rng, records }) => {
    const scale = unitScale(scenario);
    const other = scenario.categories.find((c) => c !== params.category)!;
    const [qualifying, counted] = [params.key, rng.pick([...new Set(records.map((r) => r.key))].filter((k) => k !== params.key).concat(`${params.key}-x`))];
    // The qualifying key's category records are exactly three, one of them a digit shorter.
    for (const r of records) if (r.key === qualifying && r.category === params.category) r.category = other;
    const maxWhole = Math.floor(scenario.value.max / scale);
    const minWhole = Math.ceil(scenario.value.min / scale);
    let power = 10;
    while (power * 10 <= maxWhole && power <= minWhole) power *= 10;
    const span = records[records.length - 1]!.time - records[0]!.time;
    const at = (): number => records[0]!.time + rng.int(1, span);
    for (const whole of [Math.max(minWhole, power - 1), Math.min(maxWhole, power + 1), Math.min(maxWhole, power + 2)])
      addAt(records, { ...rng.pick(records), key: qualifying, category: params.category, value: whole * scale }, at());
    // The other key: one record of the category and two of another.
    const mine = records.filter((r) => r.key === counted && r.category === params.category);
    mine.slice(1).forEach((r) => (r.category = other));
    if (mine.length === 0) addAt(records, { ...rng.pick(records), key: counted, category: params.category }, at());
    for (let i = 0; i < 2; i++) addAt(records, { ...rng.pick(records), key: counted, category: other }, at());
    const c = scenario.columns;
    const csv = [
      [c.key, c.value, c.time, c.category, c.text].join(','),
      ...records.map((r) => [r.key, showUnits(scenario, r.value), isoTime(r.time), r.category, r.text].join(',')),
    ];
    return {
      files: [{ path: 'records.csv', content: `${csv.join('\n')}\n` }],
      build: 'sqlite3 records.db ".import --csv records.csv records"\nrm records.csv\n',
      answer: maxPerQualifyingKey(records, params.category, 3)
        .map(([k, v]) => `${k} ${showUnits(scenario, v)}`)
        .join('\n'),
    };
  },
  task: (s, p) =>
    `\`DATA/records.db\` is an SQLite database with one table \`records\` (columns \`${s.columns.key}\`, \`${s.columns.value}\`, \`${s.columns.time}\`, \`${s.columns.category}\`, \`${s.columns.text}\`; every column stored as text) of ${s.nouns.records}. Consider only the ${s.nouns.records} whose \`${s.columns.category}\` is \`${p.category}\`. For every ${s.nouns.key} with at least 3 such ${s.nouns.records}, find the largest ${s.nouns.value} among them (compared as numbers). Write one line per such ${s.nouns.key} to OUT: the ${s.nouns.key}, a space, and that ${s.nouns.value} ${s.value.decimals === 0 ? 'as an integer' : 'with exactly 2 decimals'}; lines sorted by ${s.nouns.key} in byte order.`,
  solve: (s, p) => havingSql(s, p.category, 'numeric', 'filtered'),
  nearMisses: (s, p) => [
    { name: 'max-as-text', why: 'takes MAX of the text column, so 9 beats 10', solve: havingSql(s, p.category, 'text', 'filtered') },
    {
      name: 'having-counts-all-records',
      why: "counts all of a key's records in HAVING, not only those of the category",
      solve: havingSql(s, p.category, 'numeric', 'all'),
    },
  ],
};

function havingSql(s: Parameters<Skill['task']>[0], category: string, compare: 'numeric' | 'text', count: 'filtered' | 'all'): string {
  const c = s.columns;
  const value = compare === 'text' ? `"${c.value}"` : s.value.decimals === 0 ? `CAST("${c.value}" AS INTEGER)` : `CAST("${c.value}" AS REAL)`;
  const shown = compare === 'text' ? `MAX(${value})` : s.value.decimals === 0 ? `MAX(${value})` : `printf('%.2f', MAX(${value}))`;
  const query =
    count === 'filtered'
      ? `SELECT "${c.key}", ${shown} FROM records WHERE "${c.category}" = '${category}' GROUP BY "${c.key}" HAVING COUNT(*) >= 3 ORDER BY "${c.key}";`
      : `SELECT "${c.key}", ${shown.replace(`MAX(${value})`, `MAX(CASE WHEN "${c.category}" = '${category}' THEN ${value} END)`)} FROM records GROUP BY "${c.key}" HAVING COUNT(*) >= 3 AND SUM("${c.category}" = '${category}') > 0 ORDER BY "${c.key}";`;
  return `sqlite3 -separator ' ' "$d/records.db" > "$out" <<'SQL'\n${query}\nSQL`;
}
