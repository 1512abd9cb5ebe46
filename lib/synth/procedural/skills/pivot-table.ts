// A pivot table: categories × UTC dates, counts in the cells, zeros written out. The data spans at
// least two dates with a category missing on one of them (an unset cell printed empty is wrong),
// and the categories first appear out of byte order (rows in order of appearance are wrong).
import type { DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { addAt, byName, dayOf } from './shaping.ts';

export function pivot(records: DataRecord[]): string {
  const days = [...new Set(records.map((r) => dayOf(r.time)))].sort(byName);
  const categories = [...new Set(records.map((r) => r.category))].sort(byName);
  const count = (c: string, day: string): number => records.filter((r) => r.category === c && dayOf(r.time) === day).length;
  return [['category', ...days].join(' '), ...categories.map((c) => [c, ...days.map((day) => String(count(c, day)))].join(' '))].join('\n');
}

export const pivotTableSkill: Skill = {
  name: 'pivot-table',
  title: 'a pivot table of counts',
  materialise: ({ rng, scenario, records }) => {
    const last = records[records.length - 1]!;
    // A record on a later date in a category of its own there: every other category is 0 that day.
    const lone = rng.pick(scenario.categories);
    const nextDay = Math.floor(last.time / 86_400 + 1) * 86_400 + rng.int(0, 3_600);
    addAt(records, { ...last, category: lone }, nextDay);
    // First appearances out of byte order: the first record takes the largest category name.
    const categories = [...new Set(records.map((r) => r.category))].sort(byName);
    const firstSeen = [...new Set(records.map((r) => r.category))];
    if (firstSeen.join() === categories.join()) records[0]!.category = categories[categories.length - 1]!;
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: pivot(records) };
  },
  task: (s) =>
    `Make a pivot table of \`DATA/${s.fileName}\`: one row per ${s.nouns.category}, one column per UTC date (\`YYYY-MM-DD\` of the ${s.nouns.time}) on which any ${s.nouns.record} falls, and in each cell the number of ${s.nouns.records} of that ${s.nouns.category} on that date (write 0 for none). Write it to OUT with the cells of a row separated by single spaces: a header row \`category DATE1 DATE2 …\` with the dates ascending, then the rows sorted by ${s.nouns.category} in byte order.`,
  solve: (s) => pivotAwk(s.fileName, 'n[c, d] + 0', 'sorted'),
  nearMisses: (s) => [
    { name: 'empty-cells', why: 'prints a cell never counted as an empty field instead of 0', solve: pivotAwk(s.fileName, 'n[c, d]', 'sorted') },
    {
      name: 'rows-in-appearance-order',
      why: 'writes the rows in the order the categories first appear instead of sorted',
      solve: pivotAwk(s.fileName, 'n[c, d] + 0', 'appearance'),
    },
  ],
};

function pivotAwk(fileName: string, cell: string, rows: 'sorted' | 'appearance'): string {
  return [
    `extract < "$d/${fileName}" | awk -F'\\t' '{ c = $4; d = substr($3, 1, 10); n[c, d]++; if (!(c in seen)) { seen[c] = 1; cats[++nc] = c }; if (!(d in known)) { known[d] = 1; days[++nd] = d } }`,
    `  END { ${rows === 'sorted' ? 'asort(cats); ' : ''}asort(days); printf "category"; for (j = 1; j <= nd; j++) printf " %s", days[j]; print ""`,
    `        for (i = 1; i <= nc; i++) { c = cats[i]; printf "%s", c; for (j = 1; j <= nd; j++) { d = days[j]; printf " %s", ${cell} } print "" } }' > "$out"`,
  ].join('\n');
}
