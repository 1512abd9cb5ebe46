// CSV with quoted fields, read with a real CSV parser: notes hold commas, doubled quotes and line
// breaks inside quotes, and the category column has look-alike values (another capitalisation,
// or padded with a space). A naive comma split shifts columns; folding case and spaces counts the
// look-alikes.
import { isoTime, type DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { showUnits } from './shaping.ts';

export const lookAlike = (category: string): string => (category.toUpperCase() !== category ? category.toUpperCase() : ` ${category}`);

const quote = (field: string): string => `"${field.replace(/"/g, '""')}"`;

export const quotedCsvSkill: Skill = {
  name: 'quoted-csv',
  title: 'CSV with quoted fields through a CSV parser',
  answersInteger: true,
  exportsColumns: true,
  materialise: ({ scenario, params, rng, records }) => {
    const mine = records.filter((r) => r.category === params.category);
    // Look-alike categories on a few records of other categories.
    const others = records.filter((r) => r.category !== params.category);
    const alike = new Set(rng.shuffle(others).slice(0, Math.max(1, Math.floor(others.length / 6))));
    const category = (r: DataRecord): string => (alike.has(r) ? lookAlike(params.category) : r.category);
    const note = (r: DataRecord, i: number): string =>
      r === mine[0] || i % 3 === 0
        ? quote(`${r.text}, batch ${i % 5}`)
        : i % 5 === 1
          ? quote(`${r.text} "checked"`)
          : i % 11 === 2
            ? quote(`${r.text}\nsee attached`)
            : r.text;
    const c = scenario.columns;
    const rows = records.map((r, i) => [r.key, note(r, i), quote(category(r)), showUnits(scenario, r.value), isoTime(r.time)].join(','));
    return {
      files: [{ path: 'export.csv', content: `${[c.key, c.text, c.category, c.value, c.time].join(',')}\n${rows.join('\n')}\n` }],
      answer: `${mine.length} ${showUnits(
        scenario,
        mine.reduce((t, r) => t + r.value, 0),
      )}`,
    };
  },
  task: (s, p) =>
    `\`DATA/export.csv\` is a CSV export (RFC 4180: fields may be quoted, a quoted field may contain commas, doubled quotes and line breaks) with the header \`${s.columns.key},${s.columns.text},${s.columns.category},${s.columns.value},${s.columns.time}\`. Count the rows whose \`${s.columns.category}\` field is exactly \`${p.category}\`, byte for byte (the same letters in another case, or a value padded with spaces, is another ${s.nouns.category}), and total their \`${s.columns.value}\`. Write one line to OUT: the count, a space, and the total ${s.value.decimals === 0 ? 'as an integer' : 'with exactly 2 decimals'}.`,
  solve: (s, p) => csvPython(s, p.category, 'row[2] == wanted'),
  nearMisses: (s, p) => [
    {
      name: 'naive-comma-split',
      why: 'splits each line at every comma, so quoted commas and line breaks shift the columns',
      solve: `awk -F, -v c='"${p.category}"' 'NR > 1 && $3 == c { n++; t += $4 } END { printf "%d ${s.value.decimals === 0 ? '%d' : '%.2f'}\\n", n, t }' "$d/export.csv" > "$out"`,
    },
    {
      name: 'folded-category',
      why: 'compares the category after folding case and trimming spaces, counting the look-alikes',
      solve: csvPython(s, p.category, 'row[2].strip().lower() == wanted.lower()'),
    },
  ],
};

function csvPython(s: Parameters<Skill['task']>[0], category: string, match: string): string {
  return [
    `python3 - "$d/export.csv" '${category}' > "$out" <<'PY'`,
    `import csv, sys`,
    `wanted, count, total = sys.argv[2], 0, 0`,
    `with open(sys.argv[1], newline="") as f:`,
    `    rows = list(csv.reader(f))[1:]`,
    `for row in rows:`,
    `    if ${match}:`,
    `        count += 1`,
    `        total += ${s.value.decimals === 0 ? 'int(row[3])' : 'round(float(row[3]) * 100)'}`,
    s.value.decimals === 0 ? `print(count, total)` : `print(count, f"{total // 100}.{total % 100:02d}")`,
    `PY`,
  ].join('\n');
}
