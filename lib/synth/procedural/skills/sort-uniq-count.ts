import { topByCount, type Skill } from '../skill.ts';

export const sortUniqCount: Skill = {
  name: 'sort-uniq-count',
  title: 'counting with sort and uniq',
  materialise: ({ scenario, records }) => {
    const [key, count] = topByCount(records.map((r) => r.key));
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: `${key} ${count}` };
  },
  task: (s) =>
    `Find the ${s.nouns.key} with the most ${s.nouns.records} in \`DATA/${s.fileName}\` (ties: the smallest ${s.nouns.key} in byte order, as \`LC_ALL=C sort\` orders). Write one line to OUT: the ${s.nouns.key}, a space, and its number of ${s.nouns.records}.`,
  solve: (s) => `extract < "$d/${s.fileName}" | cut -f1 | sort | uniq -c | sort -k1,1nr -k2,2 | awk 'NR == 1 { print $2, $1 }' > "$out"`,
};
