import { type DataRecord } from '../records.ts';
import { topOf, type Skill } from '../skill.ts';

export const wcCount: Skill = {
  name: 'wc-count',
  title: 'line counts with wc',
  materialise: ({ scenario, records }) => {
    const byKey = new Map<string, DataRecord[]>();
    for (const r of records) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
    const lineCounts = new Map<string, number>();
    const files = [...byKey].map(([key, group]) => {
      const content = scenario.render(group);
      lineCounts.set(key, content.split('\n').length - 1);
      return { path: `by-key/${key}.txt`, content };
    });
    const [key, count] = topOf(lineCounts);
    return { files, answer: `${key} ${count}` };
  },
  task: (s) =>
    `\`DATA/by-key/\` holds one file per ${s.nouns.key}, named \`<${s.nouns.key}>.txt\`, each a complete \`${s.fileName}\` in the format above. Find the file with the most lines (as \`wc -l\` counts them; ties: the smallest ${s.nouns.key} in byte order). Write one line to OUT: its ${s.nouns.key} (the file name without \`.txt\`), a space, and its line count.`,
  solve: () => `for f in "$d"/by-key/*.txt; do printf '%s %s\\n' "$(basename "$f" .txt)" "$(wc -l < "$f")"; done | sort -k2,2nr -k1,1 | awk 'NR == 1' > "$out"`,
};
