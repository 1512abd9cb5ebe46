// A moving window: over one key's records in time order, the three consecutive records with the
// largest combined value. A window of two, or windows over every key's records together, pick
// another start.
import { isoTime, type DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { addAt, awkShow, awkUnits, showUnits } from './shaping.ts';

export function bestWindow(records: DataRecord[], size: number): [DataRecord, number] | undefined {
  const ordered = [...records].sort((a, b) => a.time - b.time);
  let best: [DataRecord, number] | undefined;
  for (let i = 0; i + size <= ordered.length; i++) {
    const total = ordered.slice(i, i + size).reduce((t, r) => t + r.value, 0);
    if (!best || total > best[1]) best = [ordered[i]!, total];
  }
  return best;
}

const shown = (w: [DataRecord, number] | undefined, show: (u: number) => string): string => (w ? `${isoTime(w[0].time)} ${show(w[1])}` : '');

export const movingWindowSkill: Skill = {
  name: 'moving-window',
  title: 'a moving window over a time series',
  materialise: ({ scenario, params, rng, records }) => {
    const show = (u: number): string => showUnits(scenario, u);
    const mine = (): DataRecord[] => records.filter((r) => r.key === params.key);
    const span = records[records.length - 1]!.time - records[0]!.time;
    while (mine().length < 6) addAt(records, { ...rng.pick(records), key: params.key }, records[0]!.time + rng.int(1, span));
    // Until both mistakes pick another window: a spike pair (best window of two) away from the best triple.
    for (let round = 0; round < 12; round++) {
      const answer = shown(bestWindow(mine(), 3), show);
      if (answer !== shown(bestWindow(mine(), 2), show) && answer !== shown(bestWindow(records, 3), show)) break;
      const ordered = mine().sort((a, b) => a.time - b.time);
      const at = rng.int(0, ordered.length - 2);
      ordered[at]!.value = scenario.value.max;
      ordered[at + 1]!.value = scenario.value.max - rng.int(0, 5);
      if (at > 0) ordered[at - 1]!.value = scenario.value.min;
      if (at + 2 < ordered.length) ordered[at + 2]!.value = scenario.value.min;
    }
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: shown(bestWindow(mine(), 3), show) };
  },
  task: (s, p) =>
    `Take the ${s.nouns.records} of the ${s.nouns.key} \`${p.key}\` in \`DATA/${s.fileName}\` in ${s.nouns.time} order and slide a window of 3 consecutive ${s.nouns.records} over them (only full windows of 3). Find the window with the largest total ${s.nouns.value}; ties: the earliest window. Write one line to OUT: the ${s.nouns.time} of the window's first ${s.nouns.record} as \`YYYY-MM-DDTHH:MM:SSZ\`, a space, and the window's total ${s.value.decimals === 0 ? 'as an integer' : 'with exactly 2 decimals'}.`,
  solve: (s, p) => windowAwk(s.fileName, awkUnits(s), awkShow(s, 'best'), `$1 == "${p.key}"`, 3),
  nearMisses: (s, p) => [
    {
      name: 'window-of-two',
      why: 'slides a window of 2 records (an off-by-one in the window size)',
      solve: windowAwk(s.fileName, awkUnits(s), awkShow(s, 'best'), `$1 == "${p.key}"`, 2),
    },
    {
      name: 'all-keys',
      why: "slides the window over every key's records, not only the asked key's",
      solve: windowAwk(s.fileName, awkUnits(s), awkShow(s, 'best'), '1', 3),
    },
  ],
};

function windowAwk(fileName: string, units: string, shownBest: string, select: string, size: number): string {
  return [
    `extract < "$d/${fileName}" | sort -t "$(printf '\\t')" -k3,3 | awk -F'\\t' '${select} { n++; v[n] = ${units}; t[n] = $3 }`,
    `  END { for (i = 1; i + ${size - 1} <= n; i++) { w = 0; for (j = i; j < i + ${size}; j++) w += v[j]; if (!found || w > best) { found = 1; best = w; at = t[i] } }`,
    `        print at, ${shownBest} }' > "$out"`,
  ].join('\n');
}
