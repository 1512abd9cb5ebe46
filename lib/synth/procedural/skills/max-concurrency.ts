// Interval overlap: the most intervals running at once, over half-open intervals [start, end).
// A cluster at the end of the log reaches the same maximum later (reporting the last time it is
// reached is wrong) and has intervals touching end-to-start (closed intervals overlap there, one
// more than the true maximum).
import { isoTime } from '../records.ts';
import type { Skill } from '../skill.ts';

export interface Interval {
  key: string;
  start: number;
  end: number;
}

// Sweep: ends before starts at the same second, so touching intervals do not overlap.
export function peak(intervals: Interval[], closed = false): [number, number] {
  const events = intervals.flatMap((i) => [
    [i.start, 1],
    [i.end, -1],
  ]) as [number, number][];
  events.sort((a, b) => a[0] - b[0] || (closed ? b[1] - a[1] : a[1] - b[1]));
  let running = 0;
  let best: [number, number] = [0, 0];
  for (const [time, delta] of events) {
    running += delta;
    if (running > best[0]) best = [running, time];
  }
  return best;
}

export const maxConcurrencySkill: Skill = {
  name: 'max-concurrency',
  title: 'interval overlap and maximum concurrency',
  answersInteger: true,
  exportsColumns: true,
  materialise: ({ rng, records }) => {
    const intervals: Interval[] = records.map((r) => ({ key: r.key, start: r.time, end: r.time + rng.int(600, 7_200) }));
    const [most] = peak(intervals);
    const x = Math.max(...intervals.map((i) => i.end)) + 3_600;
    const keys = [...new Set(records.map((r) => r.key))];
    for (let i = 0; i < most; i++) intervals.push({ key: keys[i % keys.length]!, start: x + 10 * i, end: x + 1_000 });
    intervals.push({ key: keys[0]!, start: x + 1_000, end: x + 1_600 });
    const [count, at] = peak(intervals);
    return {
      files: [{ path: 'jobs.tsv', content: `key\tstart\tend\n${intervals.map((i) => `${i.key}\t${isoTime(i.start)}\t${isoTime(i.end)}`).join('\n')}\n` }],
      answer: `${count} ${isoTime(at)}`,
    };
  },
  task: (s) =>
    `\`DATA/jobs.tsv\` lists jobs, each run for one ${s.nouns.key}: tab-separated with the header \`key<TAB>start<TAB>end\`, times as \`YYYY-MM-DDTHH:MM:SSZ\`. A job runs during the half-open interval [start, end): a job ending at the second another starts does not overlap it. Find the largest number of jobs running at the same time, and the earliest time at which that many are running. Write one line to OUT: the number, a space, and that time as \`YYYY-MM-DDTHH:MM:SSZ\`.`,
  solve: () => peakPython('end-first', 'earliest'),
  nearMisses: () => [
    {
      name: 'closed-intervals',
      why: 'counts a job ending at the second another starts as overlapping it (starts sorted before ends)',
      solve: peakPython('start-first', 'earliest'),
    },
    { name: 'latest-peak', why: 'reports the last time the maximum is reached instead of the first', solve: peakPython('end-first', 'latest') },
  ],
};

function peakPython(order: 'end-first' | 'start-first', when: 'earliest' | 'latest'): string {
  return [
    `python3 - "$d/jobs.tsv" > "$out" <<'PY'`,
    `import sys`,
    `events = []`,
    `for line in open(sys.argv[1]).read().splitlines()[1:]:`,
    `    key, start, end = line.split("\\t")`,
    `    events += [(start, ${order === 'end-first' ? '1' : '0'}, 1), (end, ${order === 'end-first' ? '0' : '1'}, -1)]`,
    `running, best, at = 0, 0, ""`,
    `for time, _, delta in sorted(events):`,
    `    running += delta`,
    `    if running ${when === 'earliest' ? '>' : '>='} best:`,
    `        best, at = running, time`,
    `print(best, at)`,
    `PY`,
  ].join('\n');
}
