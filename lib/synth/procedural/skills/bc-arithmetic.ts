// A key's total and its mean truncated by bc. The key's records are chosen so the mean's third and
// fourth decimals are above 50 (rounding would go up), and there are records of other keys (so a
// mean over every record differs).
import { formatValue, type DataRecord } from '../records.ts';
import type { Rng } from '../rng.ts';
import type { Scenario } from '../scenario.ts';
import { printfValue, show, sum, type Skill } from '../skill.ts';
import { ensureCount } from './traps.ts';

// The mean in ten-thousandths of a display unit, truncated: what `scale=4` prints.
const meanTenThousandths = (scenario: Scenario, mine: DataRecord[]): number =>
  Math.floor((sum(mine) * (scenario.value.decimals === 0 ? 10_000 : 100)) / mine.length);

// Raises one value at a time, and adds a record to the key when no value works, until rounding the
// mean to 2 decimals would round up.
function roundsUp(scenario: Scenario, rng: Rng, records: DataRecord[], key: string): void {
  for (let size = 2; size < records.length; size++) {
    ensureCount(rng, records, 'key', key, size);
    const mine = records.filter((r) => r.key === key);
    for (let step = 0; step < 2 * mine.length; step++) {
      if (meanTenThousandths(scenario, mine) % 100 >= 51) return;
      mine[step % mine.length]!.value += 1;
    }
  }
}

const bcLines = (s: Scenario, p: { key: string }, count: string, mean: string): string =>
  [
    `values=$(extract < "$d/${s.fileName}" | awk -F'\\t' -v k='${p.key}' '$1 == k { print $2 }')`,
    `count=$(${count})`,
    `total=$(printf '%s\\n' "$values" | paste -sd+ | bc)`,
    `echo "$(printf '${printfValue(s)}' "$total") $(${mean})" > "$out"`,
  ].join('\n');

export const bcArithmetic: Skill = {
  name: 'bc-arithmetic',
  title: 'decimal arithmetic with bc',
  materialise: ({ scenario, params, rng, records }) => {
    roundsUp(scenario, rng, records, params.key);
    const mine = records.filter((r) => r.key === params.key);
    const total = sum(mine);
    // bc with scale=2 truncates; in hundredths of a display unit that is an integer floor.
    const meanHundredths = Math.floor((total * (scenario.value.decimals === 0 ? 100 : 1)) / mine.length);
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: `${show(scenario, total)} ${formatValue(meanHundredths, 2)}` };
  },
  task: (s, p) =>
    `For the ${s.nouns.key} \`${p.key}\` in \`DATA/${s.fileName}\`, compute the total ${s.nouns.value} of its ${s.nouns.records} and their mean, the mean truncated (not rounded) to exactly 2 decimals as \`bc\` does with \`scale=2\`. Write one line to OUT: the total (${s.value.decimals === 0 ? 'an integer' : 'with 2 decimals'}), a space, and the mean.`,
  solve: (s, p) => bcLines(s, p, `printf '%s\\n' "$values" | wc -l`, `echo "scale=2; $total / $count" | bc`),
  nearMisses: (s, p) => [
    {
      name: 'mean-rounded',
      why: 'rounds the mean to 2 decimals instead of truncating it',
      solve: bcLines(s, p, `printf '%s\\n' "$values" | wc -l`, `printf '%.2f' "$(echo "scale=4; $total / $count" | bc)"`),
    },
    {
      name: 'scale-missing',
      why: 'divides in bc without setting `scale`, so the mean loses its decimals',
      solve: bcLines(s, p, `printf '%s\\n' "$values" | wc -l`, `echo "$total / $count" | bc`),
    },
    {
      name: 'mean-over-every-record',
      why: `divides the total by the number of all ${s.nouns.records}, not of this ${s.nouns.key}'s`,
      solve: bcLines(s, p, `extract < "$d/${s.fileName}" | wc -l`, `echo "scale=2; $total / $count" | bc`),
    },
  ],
};
