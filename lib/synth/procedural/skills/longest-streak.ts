// The longest streak: the longest run of consecutive records (in time order) with the same
// category. Two runs of the same greatest length are planted, so a tie broken towards the later
// run names another start, and counting repeats (length − 1) gives another length.
import { isoTime, type DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';

export interface Streak {
  category: string;
  start: number;
  length: number;
}

export function streaks(records: DataRecord[]): Streak[] {
  const runs: Streak[] = [];
  for (const r of [...records].sort((a, b) => a.time - b.time)) {
    const current = runs[runs.length - 1];
    if (current && current.category === r.category) current.length++;
    else runs.push({ category: r.category, start: r.time, length: 1 });
  }
  return runs;
}

export const longestStreakSkill: Skill = {
  name: 'longest-streak',
  title: 'the longest streak in a sequence',
  materialise: ({ scenario, rng, records }) => {
    const length = Math.max(...streaks(records).map((s) => s.length)) + 1;
    const category = rng.pick(scenario.categories);
    const others = scenario.categories.filter((c) => c !== category);
    // Two runs of `length` records, at the start and at the end, each fenced by a record whose
    // category differs from the run and from its other neighbour, so no run grows by merging.
    const ordered = [...records].sort((a, b) => a.time - b.time);
    while (ordered.length < 2 * length + 3) {
      const last = ordered[ordered.length - 1]!;
      const extra = { ...last, time: last.time + 60, category: rng.pick(scenario.categories.filter((c) => c !== last.category)) };
      records.push(extra);
      ordered.push(extra);
    }
    const fence = (at: number): void => {
      const near = new Set([category, ordered[at - 1]?.category, ordered[at + 1]?.category]);
      ordered[at]!.category = rng.pick(others.filter((c) => !near.has(c)));
    };
    const plant = (from: number): void => {
      ordered.slice(from, from + length).forEach((r) => (r.category = category));
      for (const edge of [from - 1, from + length]) if (ordered[edge]) fence(edge);
    };
    plant(1);
    plant(ordered.length - length - 1);
    const best = streaks(records).sort((a, b) => b.length - a.length || a.start - b.start)[0]!;
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: `${best.category} ${isoTime(best.start)} ${best.length}` };
  },
  task: (s) =>
    `Take the ${s.nouns.records} of \`DATA/${s.fileName}\` in ${s.nouns.time} order and find the longest run of consecutive ${s.nouns.records} with the same ${s.nouns.category} (a run of one ${s.nouns.record} has length 1); ties: the earliest run. Write one line to OUT: the ${s.nouns.category}, the ${s.nouns.time} of the run's first ${s.nouns.record} as \`YYYY-MM-DDTHH:MM:SSZ\`, and the run's length, separated by spaces.`,
  solve: (s) => streakAwk(s.fileName, 'n > best', 'n'),
  nearMisses: (s) => [
    { name: 'ties-latest-run', why: 'keeps the later of two equally long runs (>= instead of >)', solve: streakAwk(s.fileName, 'n >= best', 'n') },
    {
      name: 'repeats-not-records',
      why: "counts the repeats after a run's first record (length − 1) as its length",
      solve: streakAwk(s.fileName, 'n > best', 'n - 1'),
    },
  ],
};

function streakAwk(fileName: string, better: string, shown: string): string {
  return [
    `extract < "$d/${fileName}" | sort -t "$(printf '\\t')" -k3,3 | awk -F'\\t' '$4 != c { c = $4; n = 0; start = $3 } { n++; if (${better}) { best = n; bc = c; bs = start; bn = ${shown} } }`,
    `  END { print bc, bs, bn }' > "$out"`,
  ].join('\n');
}
