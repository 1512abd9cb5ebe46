import { isoTime } from '../records.ts';
import { decimalsPhrase, show, topOf, type Skill } from '../skill.ts';

// The database is built from a CSV by sqlite3 at image-build time, so the bundle stays text.
export const sqliteSql: Skill = {
  name: 'sqlite-sql',
  title: 'SQL in sqlite3',
  exportsColumns: true,
  buildsData: true,
  materialise: ({ scenario, records }) => {
    const c = scenario.columns;
    const csv = [
      [c.key, c.value, c.time, c.category, c.text].join(','),
      ...records.map((r) => [r.key, show(scenario, r.value), isoTime(r.time), r.category, r.text].join(',')),
    ];
    const totals = new Map<string, number>();
    for (const r of records) totals.set(r.category, (totals.get(r.category) ?? 0) + r.value);
    const [category, total] = topOf(totals);
    return {
      files: [{ path: 'records.csv', content: `${csv.join('\n')}\n` }],
      build: 'sqlite3 records.db ".import --csv records.csv records"\nrm records.csv\n',
      answer: `${category} ${show(scenario, total)}`,
    };
  },
  task: (s) =>
    `\`DATA/records.db\` is an SQLite database with one table \`records\` (columns \`${s.columns.key}\`, \`${s.columns.value}\`, \`${s.columns.time}\`, \`${s.columns.category}\`, \`${s.columns.text}\`; stored as text) of ${s.nouns.records}. Find the ${s.nouns.category} (\`${s.columns.category}\`) whose ${s.nouns.records} have the largest total ${s.nouns.value} (ties: the smallest ${s.nouns.category} in byte order). Write one line to OUT: the ${s.nouns.category}, a space, and that total ${decimalsPhrase(s)}.`,
  solve: (s) => {
    const c = s.columns;
    // Sum in integer hundredths so ties and totals are exact, whatever the decimals.
    const units = s.value.decimals === 0 ? `CAST("${c.value}" AS INTEGER)` : `CAST(ROUND(CAST("${c.value}" AS REAL) * 100) AS INTEGER)`;
    const shown = s.value.decimals === 0 ? `SUM(${units})` : `printf('%.2f', SUM(${units}) / 100.0)`;
    return `sqlite3 -separator ' ' "$d/records.db" > "$out" <<'SQL'\nSELECT "${c.category}", ${shown} FROM records GROUP BY "${c.category}" ORDER BY SUM(${units}) DESC, "${c.category}" LIMIT 1;\nSQL`;
  },
};
