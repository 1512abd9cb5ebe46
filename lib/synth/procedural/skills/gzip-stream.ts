import { chunk, decimalsPhrase, printfValue, show, sum, type Skill } from '../skill.ts';

// logrotate's layout with delaycompress: the newest rotation stays plain, older ones are gzipped
// (at image-build time, with -n so the archives carry no name or timestamp).
export const gzipStream: Skill = {
  name: 'gzip-stream',
  title: 'compressed streams with gzip',
  buildsData: true,
  materialise: ({ scenario, params, records }) => {
    const [oldest = [], older = [], previous = [], current = []] = chunk(records, 4);
    const f = scenario.fileName;
    return {
      files: [
        { path: f, content: scenario.render(current) },
        { path: `${f}.1`, content: scenario.render(previous) },
        { path: `${f}.2`, content: scenario.render(older) },
        { path: `${f}.3`, content: scenario.render(oldest) },
      ],
      build: `gzip -n '${f}.2' '${f}.3'\n`,
      answer: show(scenario, sum(records.filter((r) => r.category === params.category))),
    };
  },
  task: (s, p) =>
    `\`DATA/\` holds \`${s.fileName}\` and its rotated older copies: \`${s.fileName}.1\` (plain) and \`${s.fileName}.2.gz\`, \`${s.fileName}.3.gz\` (gzip-compressed). Sum the ${s.nouns.value} of the ${s.nouns.records} whose ${s.nouns.category} is \`${p.category}\` across all four files. Write the sum to OUT ${decimalsPhrase(s)}.`,
  solve: (s, p) =>
    `{ extract < "$d/${s.fileName}"; extract < "$d/${s.fileName}.1"; for f in "$d"/${s.fileName}.*.gz; do zcat "$f" | extract; done; } | awk -F'\\t' -v c='${p.category}' '$4 == c { t += $2 } END { printf "${printfValue(s)}\\n", t }' > "$out"`,
};
