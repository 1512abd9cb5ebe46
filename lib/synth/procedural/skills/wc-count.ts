// The file with the most lines. Two files always share the top line count (so the tie-break
// decides), and there are always several files, so `wc -l` over a glob prints a `total` line that
// outranks them all.
import { type DataRecord } from '../records.ts';
import type { Rng } from '../rng.ts';
import type { Scenario } from '../scenario.ts';
import { topOf, type Skill } from '../skill.ts';

const linesOf = (scenario: Scenario, group: DataRecord[]): number => scenario.render(group).split('\n').length - 1;

function groups(records: DataRecord[]): Map<string, DataRecord[]> {
  const byKey = new Map<string, DataRecord[]>();
  for (const r of records) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  return byKey;
}

// Moves records between keys until the two longest files have the same number of lines: from
// the longest to the second while that halves the gap, else from another key, else (two keys one
// record apart) one record of the longest to a new key. Lines per record can vary (noise
// comments), so a move may overshoot; the loop then works on the new top two.
function tieAtTop(scenario: Scenario, rng: Rng, records: DataRecord[]): void {
  if (groups(records).size < 2) records[0]!.key = `${records[0]!.key}0`;
  for (let guard = 0; guard < 4 * records.length; guard++) {
    const [first, second] = [...groups(records)].map(([key, group]) => [key, linesOf(scenario, group), group] as const).sort((a, b) => b[1] - a[1]);
    const gap = first![1] - second![1];
    if (gap === 0) return;
    const perRecord = linesOf(scenario, first![2].slice(0, 1)) - linesOf(scenario, []);
    const donors = records.filter((r) => r.key !== first![0] && r.key !== second![0]);
    if (gap >= 2 * perRecord && first![2].length > 1) rng.pick(first![2]).key = second![0];
    else if (donors.length > 0) rng.pick(donors).key = second![0];
    else rng.pick(first![2]).key = `${first![0]}0`;
  }
  // Moves that never settle (a domain whose lines per record depend on the record, even on its
  // key): a copy of the longest file's records under a new key that renders to as many lines.
  const [top, topGroup] = [...groups(records)].sort((a, b) => linesOf(scenario, b[1]) - linesOf(scenario, a[1]))[0]!;
  const topLines = linesOf(scenario, topGroup);
  const taken = groups(records);
  for (let n = 1; n <= 1000; n++) {
    const copy = topGroup.map((r) => ({ ...r, key: `${top}${n}` }));
    if (!taken.has(`${top}${n}`) && linesOf(scenario, copy) === topLines) {
      records.push(...copy);
      return;
    }
  }
  throw new Error(`wc-count: no copy of ${top}'s ${topLines}-line file ties it in ${scenario.name}`);
}

export const wcCount: Skill = {
  name: 'wc-count',
  title: 'line counts with wc',
  materialise: ({ scenario, rng, records }) => {
    tieAtTop(scenario, rng, records);
    const lineCounts = new Map<string, number>();
    const files = [...groups(records)].map(([key, group]) => {
      lineCounts.set(key, linesOf(scenario, group));
      return { path: `by-key/${key}.txt`, content: scenario.render(group) };
    });
    const [key, count] = topOf(lineCounts);
    return { files, answer: `${key} ${count}` };
  },
  task: (s) =>
    `\`DATA/by-key/\` holds one file per ${s.nouns.key}, named \`<${s.nouns.key}>.txt\`, each a complete \`${s.fileName}\` in the format above. Find the file with the most lines (as \`wc -l\` counts them; ties: the smallest ${s.nouns.key} in byte order). Write one line to OUT: its ${s.nouns.key} (the file name without \`.txt\`), a space, and its line count.`,
  solve: () => `for f in "$d"/by-key/*.txt; do printf '%s %s\\n' "$(basename "$f" .txt)" "$(wc -l < "$f")"; done | sort -k2,2nr -k1,1 | awk 'NR == 1' > "$out"`,
  nearMisses: () => [
    {
      name: 'ties-wrong-way',
      why: 'breaks the tie for the most lines towards the largest name',
      solve: `for f in "$d"/by-key/*.txt; do printf '%s %s\\n' "$(basename "$f" .txt)" "$(wc -l < "$f")"; done | sort -k2,2nr -k1,1r | awk 'NR == 1' > "$out"`,
    },
    {
      name: 'wc-total-line',
      why: '`wc -l` over several files ends with a `total` line, which sorts above every file',
      solve: `wc -l "$d"/by-key/*.txt | sort -k1,1nr | awk 'NR == 1 { name = $2; sub(/.*\\//, "", name); sub(/\\.txt$/, "", name); print name, $1 }' > "$out"`,
    },
  ],
};
