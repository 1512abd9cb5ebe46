import { isoTime } from '../records.ts';
import { decimalsPhrase, printfValue, show, type Skill } from '../skill.ts';

// The records as a JSON array named by the scenario's columns. One record of the asked category is
// made the strict maximum, so "the largest" has exactly one answer.
export const jqQuery: Skill = {
  name: 'jq-query',
  title: 'JSON queries with jq',
  exportsColumns: true,
  materialise: ({ scenario, params, rng, records }) => {
    const inCategory = records.filter((r) => r.category === params.category);
    const top = rng.pick(inCategory);
    top.value = Math.max(...inCategory.map((r) => r.value)) + 1;
    const c = scenario.columns;
    const json = records.map(
      (r) =>
        `  {"${c.key}": "${r.key}", "${c.value}": ${show(scenario, r.value)}, "${c.time}": "${isoTime(r.time)}", "${c.category}": "${r.category}", "${c.text}": "${r.text}"}`,
    );
    return { files: [{ path: 'records.json', content: `[\n${json.join(',\n')}\n]\n` }], answer: `${top.key} ${show(scenario, top.value)}` };
  },
  task: (s, p) =>
    `\`DATA/records.json\` is a JSON array of ${s.nouns.records} with the fields \`${s.columns.key}\` (${s.nouns.key}), \`${s.columns.value}\` (${s.nouns.value}), \`${s.columns.time}\`, \`${s.columns.category}\` (${s.nouns.category}) and \`${s.columns.text}\`. Among the ${s.nouns.records} whose \`${s.columns.category}\` is \`${p.category}\`, find the one with the largest \`${s.columns.value}\`. Write one line to OUT: its ${s.nouns.key}, a space, and its ${s.nouns.value} ${decimalsPhrase(s)}.`,
  solve: (s, p) =>
    `jq -r --arg c '${p.category}' 'map(select(.["${s.columns.category}"] == $c)) | max_by(.["${s.columns.value}"]) | "\\(.["${s.columns.key}"]) \\(.["${s.columns.value}"])"' "$d/records.json" | awk '{ printf "%s ${printfValue(s)}\\n", $1, $2 }' > "$out"`,
};
