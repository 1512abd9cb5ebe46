// logrotate's layout with delaycompress: the newest rotation stays plain, older ones are gzipped
// (at image-build time, with -n so the archives carry no name or timestamp). Every one of the four
// files holds records of the asked category, so leaving out any of them sums too little.
import type { Scenario } from '../scenario.ts';
import { chunk, decimalsPhrase, printfValue, show, sum, type Skill } from '../skill.ts';

const total = (s: Scenario, p: { category: string }, reads: string[]): string =>
  `{ ${reads.join('; ')}; } | awk -F'\\t' -v c='${p.category}' '$4 == c { t += $2 } END { printf "${printfValue(s)}\\n", t }' > "$out"`;

export const gzipStream: Skill = {
  name: 'gzip-stream',
  title: 'compressed streams with gzip',
  buildsData: true,
  materialise: ({ scenario, params, rng, records }) => {
    const [oldest = [], older = [], previous = [], current = []] = chunk(records, 4);
    for (const part of [oldest, older, previous, current])
      if (part.length > 0 && !part.some((r) => r.category === params.category)) rng.pick(part).category = params.category;
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
    total(s, p, [`extract < "$d/${s.fileName}"`, `extract < "$d/${s.fileName}.1"`, `for f in "$d"/${s.fileName}.*.gz; do zcat "$f" | extract; done`]),
  nearMisses: (s, p) => [
    {
      name: 'plain-files-only',
      why: 'reads the plain files and skips the compressed rotations',
      solve: total(s, p, [`extract < "$d/${s.fileName}"`, `extract < "$d/${s.fileName}.1"`]),
    },
    { name: 'current-file-only', why: 'reads only the current file, none of its rotations', solve: total(s, p, [`extract < "$d/${s.fileName}"`]) },
    {
      name: 'plain-rotation-skipped',
      why: `takes every rotation to be compressed and so skips the plain \`${s.fileName}.1\``,
      solve: total(s, p, [`extract < "$d/${s.fileName}"`, `for f in "$d"/${s.fileName}.*.gz; do zcat "$f" | extract; done`]),
    },
  ],
};
