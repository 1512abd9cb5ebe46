// The most frequent key. Two keys always share the top count (so the tie-break decides) and the
// winner's records are not all adjacent (so `uniq -c` without `sort` undercounts).
import type { DataRecord } from '../records.ts';
import { topByCount, topOf, type Skill } from '../skill.ts';

// What `uniq -c | sort -k1,1nr -k2,2` on unsorted keys answers: the longest run of one key.
function longestRun(keys: string[]): [string, number] {
  const runs = new Map<string, number>();
  let run = 0;
  keys.forEach((key, i) => {
    run = i > 0 && keys[i - 1] === key ? run + 1 : 1;
    runs.set(key, Math.max(runs.get(key) ?? 0, run));
  });
  return topOf(runs);
}

function tieAtTop(records: DataRecord[]): void {
  const counts = (): Array<[string, number]> => [...topCounts(records)].sort((a, b) => b[1] - a[1]);
  const [[top], [runnerUp]] = counts() as [[string, number], [string, number]];
  for (let guard = 0; guard < records.length; guard++) {
    const count = new Map(counts());
    const gap = count.get(top)! - count.get(runnerUp)!;
    if (gap === 0) return;
    const donor = records.find((r) => r.key !== top && r.key !== runnerUp);
    // Only the two keys left: move from the top, or, one apart, move one record to a new key.
    if (donor) donor.key = runnerUp;
    else if (gap >= 2) records.find((r) => r.key === top)!.key = runnerUp;
    else records.find((r) => r.key === top)!.key = `${top}0`;
  }
}

function topCounts(records: DataRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.key, (counts.get(r.key) ?? 0) + 1);
  return counts;
}

export const sortUniqCount: Skill = {
  name: 'sort-uniq-count',
  title: 'counting with sort and uniq',
  materialise: ({ scenario, records }) => {
    if (topCounts(records).size < 2) records[0]!.key = `${records[0]!.key}0`;
    tieAtTop(records);
    const [key, count] = topByCount(records.map((r) => r.key));
    // Break up the winner's longest run until counting runs gives another answer.
    for (let guard = 0; longestRun(records.map((r) => r.key)).join(' ') === `${key} ${count}` && guard < records.length; guard++) {
      const at = records.findIndex((r, i) => r.key === key && records[i + 1]?.key === key);
      const swap = records.findIndex((r, i) => r.key !== key && records[i - 1]?.key !== key && records[i + 1]?.key !== key);
      if (at < 0 || swap < 0) break;
      [records[at]!.key, records[swap]!.key] = [records[swap]!.key, key];
    }
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: `${key} ${count}` };
  },
  task: (s) =>
    `Find the ${s.nouns.key} with the most ${s.nouns.records} in \`DATA/${s.fileName}\` (ties: the smallest ${s.nouns.key} in byte order, as \`LC_ALL=C sort\` orders). Write one line to OUT: the ${s.nouns.key}, a space, and its number of ${s.nouns.records}.`,
  solve: (s) => `extract < "$d/${s.fileName}" | cut -f1 | sort | uniq -c | sort -k1,1nr -k2,2 | awk 'NR == 1 { print $2, $1 }' > "$out"`,
  nearMisses: (s) => [
    {
      name: 'ties-wrong-way',
      why: `breaks the tie for the top count towards the largest ${s.nouns.key}`,
      solve: `extract < "$d/${s.fileName}" | cut -f1 | sort | uniq -c | sort -k1,1nr -k2,2r | awk 'NR == 1 { print $2, $1 }' > "$out"`,
    },
    {
      name: 'uniq-without-sort',
      why: '`uniq -c` on unsorted input counts runs of adjacent lines, not occurrences',
      solve: `extract < "$d/${s.fileName}" | cut -f1 | uniq -c | sort -k1,1nr -k2,2 | awk 'NR == 1 { print $2, $1 }' > "$out"`,
    },
  ],
};
