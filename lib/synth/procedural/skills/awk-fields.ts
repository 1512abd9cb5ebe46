// Sum one field over the records of a category. The data opens with a record of that category (so
// skipping a supposed header line loses it), holds other categories (so a missing filter counts
// them) and, with two decimals, cents in the category (so truncating to whole units shows).
import type { Scenario } from '../scenario.ts';
import { decimalsPhrase, printfValue, show, sum, type Skill } from '../skill.ts';
import { ensureCount } from './traps.ts';

const sumWhere = (s: Scenario, filter: string, value = '$2'): string =>
  `awk -F'\\t' -v c="$c" '${filter}{ t += ${value} } END { printf "${printfValue(s)}\\n", t }'`;

export const awkFields: Skill = {
  name: 'awk-fields',
  title: 'field arithmetic with awk',
  materialise: ({ scenario, params, rng, records }) => {
    records[0]!.category = params.category;
    const other = scenario.categories.find((c) => c !== params.category)!;
    ensureCount(rng, records, 'category', other, 1, (r) => r === records[0]);
    const inCategory = records.filter((r) => r.category === params.category);
    if (scenario.value.decimals === 2 && inCategory.every((r) => r.value % 100 === 0)) inCategory[inCategory.length - 1]!.value += 37;
    return {
      files: [{ path: scenario.fileName, content: scenario.render(records) }],
      answer: show(scenario, sum(records.filter((r) => r.category === params.category))),
    };
  },
  task: (s, p) =>
    `Sum the ${s.nouns.value} of every ${s.nouns.record} in \`DATA/${s.fileName}\` whose ${s.nouns.category} is \`${p.category}\`. Write the total to OUT ${decimalsPhrase(s)}.`,
  solve: (s, p) => `extract < "$d/${s.fileName}" | awk -F'\\t' -v c='${p.category}' '$4 == c { t += $2 } END { printf "${printfValue(s)}\\n", t }' > "$out"`,
  nearMisses: (s, p) => [
    {
      name: 'no-category-filter',
      why: `sums every ${s.nouns.record}, not only those whose ${s.nouns.category} is ${p.category}`,
      solve: `c='${p.category}'; extract < "$d/${s.fileName}" | ${sumWhere(s, '')} > "$out"`,
    },
    {
      name: 'first-record-as-header',
      why: 'skips the first record as if it were a header line',
      solve: `c='${p.category}'; extract < "$d/${s.fileName}" | ${sumWhere(s, 'NR > 1 && $4 == c ')} > "$out"`,
    },
    ...(s.value.decimals === 2
      ? [
          {
            name: 'whole-units-only',
            why: `adds the ${s.nouns.value} as integers, dropping the cents`,
            solve: `c='${p.category}'; extract < "$d/${s.fileName}" | ${sumWhere(s, '$4 == c ', 'int($2)')} > "$out"`,
          },
        ]
      : []),
  ],
};
