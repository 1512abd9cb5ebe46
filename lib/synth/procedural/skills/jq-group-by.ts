// jq group_by reshaping over nested JSON: records in batches, grouped by category with distinct
// keys and totals. Reading the first batch only, or counting records where distinct keys are
// asked (a key repeats inside a category), each gives another table.
import { isoTime, type DataRecord } from '../records.ts';
import { chunk, printfValue, type Skill } from '../skill.ts';
import { byName, showUnits } from './shaping.ts';

export function categoryTable(records: DataRecord[], show: (units: number) => string): string {
  const categories = [...new Set(records.map((r) => r.category))].sort(byName);
  return categories
    .map((c) => {
      const mine = records.filter((r) => r.category === c);
      return `${c} ${new Set(mine.map((r) => r.key)).size} ${show(mine.reduce((t, r) => t + r.value, 0))}`;
    })
    .join('\n');
}

export const jqGroupBySkill: Skill = {
  name: 'jq-group-by',
  title: 'reshaping nested JSON with jq group_by',
  exportsColumns: true,
  materialise: ({ scenario, rng, records }) => {
    // A key that repeats inside one category.
    const [first, second] = rng.shuffle(records);
    second!.key = first!.key;
    second!.category = first!.category;
    const c = scenario.columns;
    const item = (r: DataRecord): string =>
      `{"${c.key}": "${r.key}", "${c.value}": ${showUnits(scenario, r.value)}, "${c.time}": "${isoTime(r.time)}", "${c.category}": "${r.category}", "${c.text}": "${r.text}"}`;
    const batches = chunk(records, 3).map(
      (batch, i) => `    {"batch": "import-${i + 1}", "records": [\n${batch.map((r) => `      ${item(r)}`).join(',\n')}\n    ]}`,
    );
    return {
      files: [{ path: 'batches.json', content: `{\n  "batches": [\n${batches.join(',\n')}\n  ]\n}\n` }],
      answer: categoryTable(records, (units) => showUnits(scenario, units)),
    };
  },
  task: (s) =>
    `\`DATA/batches.json\` is a JSON object whose \`batches\` array holds import batches, each with a \`records\` array of ${s.nouns.records} with the fields \`${s.columns.key}\` (${s.nouns.key}), \`${s.columns.value}\` (${s.nouns.value}), \`${s.columns.time}\`, \`${s.columns.category}\` (${s.nouns.category}) and \`${s.columns.text}\`. Over the ${s.nouns.records} of all batches, group by \`${s.columns.category}\`. Write one line per ${s.nouns.category} to OUT: the ${s.nouns.category}, the number of distinct values of the ${s.nouns.key} in it, and its total ${s.nouns.value} ${s.value.decimals === 0 ? 'as an integer' : 'with exactly 2 decimals'}, separated by spaces; lines sorted by ${s.nouns.category} in byte order.`,
  solve: (s) => groupJq(s, '.batches[].records[]', 'unique | length'),
  nearMisses: (s) => [
    {
      name: 'first-batch-only',
      why: 'reads the records of the first batch only (`.batches[0]`)',
      solve: groupJq(s, '.batches[0].records[]', 'unique | length'),
    },
    {
      name: 'records-not-distinct-keys',
      why: 'counts the records of each group instead of its distinct keys',
      solve: groupJq(s, '.batches[].records[]', 'length'),
    },
  ],
};

function groupJq(s: Parameters<Skill['task']>[0], records: string, count: string): string {
  const c = s.columns;
  return `jq -r '[${records}] | group_by(.["${c.category}"]) | .[] | [.[0]["${c.category}"], (map(.["${c.key}"]) | ${count}), (map(.["${c.value}"]) | add)] | @tsv' "$d/batches.json" | awk -F'\\t' '{ printf "%s %s ${printfValue(s)}\\n", $1, $2, $3 }' | sort > "$out"`;
}
