// The largest value within a category, from a JSON export. The winner has one digit more than
// the rest of its category, and another of its records starts with a 9, so a text sort of the
// values picks the wrong one; a record of another category is larger still, so a missing
// category filter shows too.
import { isoTime } from '../records.ts';
import { decimalsPhrase, printfValue, show, type Skill } from '../skill.ts';
import { ensureCount } from './traps.ts';

export const jqQuery: Skill = {
  name: 'jq-query',
  title: 'JSON queries with jq',
  exportsColumns: true,
  materialise: ({ scenario, params, rng, records }) => {
    ensureCount(rng, records, 'category', params.category, 2);
    const other = scenario.categories.find((c) => c !== params.category)!;
    ensureCount(rng, records, 'category', other, 1, (r) => r.category === params.category);
    const inCategory = records.filter((r) => r.category === params.category);
    const others = records.filter((r) => r.category !== params.category);
    const unit = scenario.value.decimals === 0 ? 1 : 100;
    const digits = String(Math.floor(Math.max(...inCategory.map((r) => r.value)) / unit)).length;
    const top = rng.pick(inCategory);
    top.value = 10 ** digits * unit;
    const nines = rng.pick(inCategory.filter((r) => r !== top));
    nines.value = (9 * 10 ** (digits - 1) + rng.int(0, 10 ** (digits - 1) - 1)) * unit + (nines.value % unit);
    rng.pick(others).value = top.value + rng.int(1, 50) * unit;
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
  nearMisses: (s, p) => [
    {
      name: 'text-sort-of-values',
      why: 'sorts the values as text, so a value starting with 9 beats one with more digits',
      solve: `jq -r --arg c '${p.category}' '.[] | select(.["${s.columns.category}"] == $c) | "\\(.["${s.columns.key}"]) \\(.["${s.columns.value}"])"' "$d/records.json" | sort -k2,2r | awk 'NR == 1 { printf "%s ${printfValue(s)}\\n", $1, $2 }' > "$out"`,
    },
    {
      name: 'no-category-filter',
      why: `takes the largest value over every ${s.nouns.record}, not only those whose ${s.columns.category} is ${p.category}`,
      solve: `jq -r 'max_by(.["${s.columns.value}"]) | "\\(.["${s.columns.key}"]) \\(.["${s.columns.value}"])"' "$d/records.json" | awk '{ printf "%s ${printfValue(s)}\\n", $1, $2 }' > "$out"`,
    },
  ],
};
