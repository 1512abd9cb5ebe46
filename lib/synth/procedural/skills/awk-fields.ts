import { decimalsPhrase, printfValue, show, sum, type Skill } from '../skill.ts';

export const awkFields: Skill = {
  name: 'awk-fields',
  title: 'field arithmetic with awk',
  materialise: ({ scenario, params, records }) => ({
    files: [{ path: scenario.fileName, content: scenario.render(records) }],
    answer: show(scenario, sum(records.filter((r) => r.category === params.category))),
  }),
  task: (s, p) =>
    `Sum the ${s.nouns.value} of every ${s.nouns.record} in \`DATA/${s.fileName}\` whose ${s.nouns.category} is \`${p.category}\`. Write the total to OUT ${decimalsPhrase(s)}.`,
  solve: (s, p) => `extract < "$d/${s.fileName}" | awk -F'\\t' -v c='${p.category}' '$4 == c { t += $2 } END { printf "${printfValue(s)}\\n", t }' > "$out"`,
};
