import { formatValue } from '../records.ts';
import { printfValue, show, sum, type Skill } from '../skill.ts';

export const bcArithmetic: Skill = {
  name: 'bc-arithmetic',
  title: 'decimal arithmetic with bc',
  materialise: ({ scenario, params, records }) => {
    const mine = records.filter((r) => r.key === params.key);
    const total = sum(mine);
    // bc with scale=2 truncates; in hundredths of a display unit that is an integer floor.
    const meanHundredths = Math.floor((total * (scenario.value.decimals === 0 ? 100 : 1)) / mine.length);
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: `${show(scenario, total)} ${formatValue(meanHundredths, 2)}` };
  },
  task: (s, p) =>
    `For the ${s.nouns.key} \`${p.key}\` in \`DATA/${s.fileName}\`, compute the total ${s.nouns.value} of its ${s.nouns.records} and their mean, the mean truncated (not rounded) to exactly 2 decimals as \`bc\` does with \`scale=2\`. Write one line to OUT: the total (${s.value.decimals === 0 ? 'an integer' : 'with 2 decimals'}), a space, and the mean.`,
  solve: (s, p) =>
    [
      `values=$(extract < "$d/${s.fileName}" | awk -F'\\t' -v k='${p.key}' '$1 == k { print $2 }')`,
      `count=$(printf '%s\\n' "$values" | wc -l)`,
      `total=$(printf '%s\\n' "$values" | paste -sd+ | bc)`,
      `echo "$(printf '${printfValue(s)}' "$total") $(echo "scale=2; $total / $count" | bc)" > "$out"`,
    ].join('\n'),
};
