import { isoTime } from '../records.ts';
import { show, type Skill } from '../skill.ts';

// A pipe-separated export whose column order is shuffled, so positions must be read off the header.
export const cutColumns: Skill = {
  name: 'cut-columns',
  title: 'column extraction with cut',
  exportsColumns: true,
  materialise: ({ scenario, params, rng, records }) => {
    const c = scenario.columns;
    const fields = rng.shuffle(['key', 'value', 'time', 'category', 'text'] as const);
    const cell = (r: (typeof records)[number], f: (typeof fields)[number]): string =>
      f === 'value' ? show(scenario, r.value) : f === 'time' ? isoTime(r.time) : r[f];
    const rows = [fields.map((f) => c[f]).join('|'), ...records.map((r) => fields.map((f) => cell(r, f)).join('|'))];
    const distinct = new Set(records.filter((r) => r.category === params.category).map((r) => r.key));
    return { files: [{ path: 'export.psv', content: `${rows.join('\n')}\n` }], answer: String(distinct.size) };
  },
  task: (s, p) =>
    `\`DATA/export.psv\` is a pipe-separated export of ${s.nouns.records}; its header row names the columns (\`${s.columns.key}\` is the ${s.nouns.key}, \`${s.columns.category}\` the ${s.nouns.category}) but their order is not fixed. Count the distinct ${s.nouns.key} values among rows whose \`${s.columns.category}\` is \`${p.category}\`. Write the count to OUT.`,
  solve: (s, p) =>
    [
      `key_col=$(head -n 1 "$d/export.psv" | tr '|' '\\n' | grep -nx '${s.columns.key}' | cut -d: -f1)`,
      `cat_col=$(head -n 1 "$d/export.psv" | tr '|' '\\n' | grep -nx '${s.columns.category}' | cut -d: -f1)`,
      `paste -d'|' <(tail -n +2 "$d/export.psv" | cut -d'|' -f"$cat_col") <(tail -n +2 "$d/export.psv" | cut -d'|' -f"$key_col") |`,
      `  awk -F'|' -v c='${p.category}' '$1 == c { print $2 }' | sort -u | wc -l > "$out"`,
    ].join('\n'),
};
