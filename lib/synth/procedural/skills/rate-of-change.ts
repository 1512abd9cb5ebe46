// Rate of change between consecutive records: the largest rise in one key's value from one record
// to the next. The data holds a steeper fall (the absolute change picks it) and neighbouring
// records of other keys (consecutive lines of the whole file give another pair).
import { isoTime, type DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { addAt, awkShow, awkUnits, showUnits } from './shaping.ts';

export function largestStep(records: DataRecord[], measure: (delta: number) => number = (delta) => delta): [DataRecord, DataRecord, number] | undefined {
  const ordered = [...records].sort((a, b) => a.time - b.time);
  let best: [DataRecord, DataRecord, number] | undefined;
  for (let i = 1; i < ordered.length; i++) {
    const delta = ordered[i]!.value - ordered[i - 1]!.value;
    if (!best || measure(delta) > measure(best[2])) best = [ordered[i - 1]!, ordered[i]!, delta];
  }
  return best;
}

const line = (step: [DataRecord, DataRecord, number] | undefined, show: (u: number) => string): string =>
  step ? `${isoTime(step[0].time)} ${isoTime(step[1].time)} ${show(step[2])}` : '';

export const rateOfChangeSkill: Skill = {
  name: 'rate-of-change',
  title: 'changes between consecutive records',
  materialise: ({ scenario, params, rng, records }) => {
    const show = (u: number): string => showUnits(scenario, u);
    const mine = (): DataRecord[] => records.filter((r) => r.key === params.key);
    const span = records[records.length - 1]!.time - records[0]!.time;
    while (mine().length < 5) addAt(records, { ...rng.pick(records), key: params.key }, records[0]!.time + rng.int(1, span));
    for (let round = 0; round < 12; round++) {
      const answer = line(largestStep(mine()), show);
      if (answer !== line(largestStep(mine(), Math.abs), show) && answer !== line(largestStep(records), show)) break;
      // A steep fall: one record at the top of the range, the next at the bottom.
      const ordered = mine().sort((a, b) => a.time - b.time);
      const at = rng.int(1, ordered.length - 2);
      ordered[at]!.value = scenario.value.max;
      ordered[at + 1]!.value = scenario.value.min;
      ordered[at - 1]!.value = Math.floor((scenario.value.max + scenario.value.min) / 2);
    }
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: line(largestStep(mine()), show) };
  },
  task: (s, p) =>
    `Take the ${s.nouns.records} of the ${s.nouns.key} \`${p.key}\` in \`DATA/${s.fileName}\` in ${s.nouns.time} order. For each pair of consecutive ${s.nouns.records} of that ${s.nouns.key}, the change is the later ${s.nouns.value} minus the earlier. Find the pair with the largest change (the steepest rise; a fall is a negative change); ties: the earliest pair. Write one line to OUT: the earlier ${s.nouns.record}'s ${s.nouns.time}, the later one's (both as \`YYYY-MM-DDTHH:MM:SSZ\`) and the change ${s.value.decimals === 0 ? 'as an integer' : 'with exactly 2 decimals'}, separated by spaces.`,
  solve: (s, p) => changeAwk(s, `$1 == "${p.key}"`, 'd'),
  nearMisses: (s, p) => [
    {
      name: 'absolute-change',
      why: 'ranks pairs by the size of the change, so a steep fall wins over the largest rise',
      solve: changeAwk(s, `$1 == "${p.key}"`, '(d < 0 ? -d : d)'),
    },
    { name: 'all-keys', why: 'compares consecutive lines of the whole file instead of consecutive records of the key', solve: changeAwk(s, '1', 'd') },
  ],
};

function changeAwk(s: Parameters<Skill['task']>[0], select: string, measure: string): string {
  return [
    `extract < "$d/${s.fileName}" | sort -t "$(printf '\\t')" -k3,3 | awk -F'\\t' '${select} { v = ${awkUnits(s)}`,
    `  if (n++) { d = v - prev; m = ${measure}; if (!found || m > best) { found = 1; best = m; change = d; from = pt; to = $3 } }`,
    `  prev = v; pt = $3 }`,
    `  END { print from, to, (change < 0 ? "-" : "") ${awkShow(s, '(change < 0 ? -change : change)')} }' > "$out"`,
  ].join('\n');
}
