// The category with the largest total, in SQL. Two categories always share the top total (so the
// tie-break decides), the winner is not the category with the most rows (so ordering by COUNT
// shows) and, with two decimals, carries cents (so casting the text values to INTEGER shows).
import { byteCompare, isoTime, type DataRecord } from '../records.ts';
import type { Rng } from '../rng.ts';
import type { Scenario } from '../scenario.ts';
import { decimalsPhrase, show, topByCount, topOf, type Skill } from '../skill.ts';
import { addSpread, totalsBy } from './traps.ts';

function shapeTotals(scenario: Scenario, rng: Rng, records: DataRecord[]): void {
  const present = () => [...new Set(records.map((r) => r.category))].sort(byteCompare);
  for (const missing of rng.shuffle(scenario.categories.filter((c) => !present().includes(c)))) {
    if (present().length >= 3) break;
    const [crowded] = topByCount(records.map((r) => r.category));
    records.find((r) => r.category === crowded)!.category = missing;
  }
  const categories = present();
  const [mostRows] = topByCount(records.map((r) => r.category));
  const winner = categories.find((c, i) => c !== mostRows && i < categories.length - 1)!;
  const partner = categories[categories.indexOf(winner) + 1]!;
  // With cents, a total that is not whole keeps a record with cents after the raise.
  let target = Math.max(...totalsBy(records, (r) => r.category).values()) + 1;
  if (scenario.value.decimals === 2 && target % 100 === 0) target += 1;
  for (const c of [winner, partner]) {
    const group = records.filter((r) => r.category === c);
    addSpread(group, target - group.reduce((t, r) => t + r.value, 0));
  }
}

const query = (s: Scenario, units: string, order: string): string => {
  const c = s.columns;
  const shown = s.value.decimals === 0 ? `SUM(${units})` : `printf('%.2f', SUM(${units}) / 100.0)`;
  return `sqlite3 -separator ' ' "$d/records.db" > "$out" <<'SQL'\nSELECT "${c.category}", ${shown} FROM records GROUP BY "${c.category}" ORDER BY ${order} LIMIT 1;\nSQL`;
};

// Sum in integer hundredths so ties and totals are exact, whatever the decimals.
const exactUnits = (s: Scenario): string =>
  s.value.decimals === 0 ? `CAST("${s.columns.value}" AS INTEGER)` : `CAST(ROUND(CAST("${s.columns.value}" AS REAL) * 100) AS INTEGER)`;

// The database is built from a CSV by sqlite3 at image-build time, so the bundle stays text.
export const sqliteSql: Skill = {
  name: 'sqlite-sql',
  title: 'SQL in sqlite3',
  exportsColumns: true,
  buildsData: true,
  materialise: ({ scenario, rng, records }) => {
    shapeTotals(scenario, rng, records);
    const c = scenario.columns;
    const csv = [
      [c.key, c.value, c.time, c.category, c.text].join(','),
      ...records.map((r) => [r.key, show(scenario, r.value), isoTime(r.time), r.category, r.text].join(',')),
    ];
    const [category, total] = topOf(totalsBy(records, (r) => r.category));
    return {
      files: [{ path: 'records.csv', content: `${csv.join('\n')}\n` }],
      build: 'sqlite3 records.db ".import --csv records.csv records"\nrm records.csv\n',
      answer: `${category} ${show(scenario, total)}`,
    };
  },
  task: (s) =>
    `\`DATA/records.db\` is an SQLite database with one table \`records\` (columns \`${s.columns.key}\`, \`${s.columns.value}\`, \`${s.columns.time}\`, \`${s.columns.category}\`, \`${s.columns.text}\`; stored as text) of ${s.nouns.records}. Find the ${s.nouns.category} (\`${s.columns.category}\`) whose ${s.nouns.records} have the largest total ${s.nouns.value} (ties: the smallest ${s.nouns.category} in byte order). Write one line to OUT: the ${s.nouns.category}, a space, and that total ${decimalsPhrase(s)}.`,
  solve: (s) => query(s, exactUnits(s), `SUM(${exactUnits(s)}) DESC, "${s.columns.category}"`),
  nearMisses: (s) => [
    {
      name: 'ties-wrong-way',
      why: `breaks the tie for the largest total towards the largest ${s.nouns.category}`,
      solve: query(s, exactUnits(s), `SUM(${exactUnits(s)}) DESC, "${s.columns.category}" DESC`),
    },
    {
      name: 'most-rows-not-largest-total',
      why: `orders the ${s.nouns.category} groups by their number of rows instead of their total`,
      solve: query(s, exactUnits(s), `COUNT(*) DESC, "${s.columns.category}"`),
    },
    ...(s.value.decimals === 2
      ? [
          {
            name: 'integer-cast',
            why: 'casts the text values to INTEGER, dropping the cents before summing',
            solve: query(s, `CAST("${s.columns.value}" AS INTEGER) * 100`, `SUM(CAST("${s.columns.value}" AS INTEGER)) DESC, "${s.columns.category}"`),
          },
        ]
      : []),
  ],
};
