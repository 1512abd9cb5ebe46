// A nearest-rank percentile in Python. The category always has exactly 10 records, so 0.9·n is a
// whole number and `values[int(0.9 * n)]` is one rank too high; its two largest values are at least
// 10 units apart, so an interpolating percentile (statistics.quantiles) differs; and the record at
// that rank in file order is not the one in sorted order.
import type { DataRecord } from '../records.ts';
import type { Rng } from '../rng.ts';
import type { Scenario } from '../scenario.ts';
import { decimalsPhrase, show, type Skill } from '../skill.ts';
import { ensureCount } from './traps.ts';

const SIZE = 10;
const RANK = Math.ceil(0.9 * SIZE) - 1;

function shape(scenario: Scenario, rng: Rng, records: DataRecord[], category: string): void {
  ensureCount(rng, records, 'category', category, SIZE);
  const others = scenario.categories.filter((c) => c !== category);
  for (const r of records.filter((x) => x.category === category).slice(SIZE)) r.category = rng.pick(others);
  const mine = records.filter((r) => r.category === category);
  const sorted = [...mine].sort((a, b) => a.value - b.value);
  const [atRank, top] = [sorted[RANK]!, sorted[SIZE - 1]!];
  if (top.value - atRank.value < 10) top.value = atRank.value + 10 + rng.int(0, 40);
  if (mine[RANK]!.value === atRank.value) {
    const swap = mine.find((r) => r.value !== atRank.value)!;
    [mine[RANK]!.value, swap.value] = [swap.value, mine[RANK]!.value];
  }
}

const script = (s: Scenario, p: { category: string }, lines: string[], imports = 'math, sys'): string =>
  [`extract < "$d/${s.fileName}" | python3 -c '`, `import ${imports}`, `rows = [line.rstrip("\\n").split("\\t") for line in sys.stdin]`, ...lines].join('\n') +
  `' '${p.category}' > "$out"`;

const print = (s: Scenario, expression: string): string => `print(f"{${expression}:.${s.value.decimals}f}")`;

export const pythonScript: Skill = {
  name: 'python-script',
  title: 'statistics in a Python script',
  materialise: ({ scenario, params, rng, records }) => {
    shape(scenario, rng, records, params.category);
    const values = records
      .filter((r) => r.category === params.category)
      .map((r) => r.value)
      .sort((a, b) => a - b);
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: show(scenario, values[Math.ceil(0.9 * values.length) - 1]!) };
  },
  task: (s, p) =>
    `Compute the 90th percentile of the ${s.nouns.value} over the ${s.nouns.records} in \`DATA/${s.fileName}\` whose ${s.nouns.category} is \`${p.category}\`, by the nearest-rank method: sort the n values ascending and take the one at 1-based rank ⌈0.9·n⌉. Write it to OUT ${decimalsPhrase(s)}.`,
  solve: (s, p) =>
    script(s, p, [`values = sorted(float(row[1]) for row in rows if row[3] == sys.argv[1])`, print(s, 'values[math.ceil(0.9 * len(values)) - 1]')]),
  nearMisses: (s, p) => [
    {
      name: 'floor-index',
      why: 'indexes the sorted list at int(0.9·n), one rank too high when 0.9·n is whole',
      solve: script(s, p, [`values = sorted(float(row[1]) for row in rows if row[3] == sys.argv[1])`, print(s, 'values[int(0.9 * len(values))]')]),
    },
    {
      name: 'interpolated-quantile',
      why: 'uses statistics.quantiles, which interpolates between ranks instead of taking the nearest rank',
      solve: script(
        s,
        p,
        [`values = sorted(float(row[1]) for row in rows if row[3] == sys.argv[1])`, print(s, 'statistics.quantiles(values, n=10)[-1]')],
        'math, statistics, sys',
      ),
    },
    {
      name: 'values-unsorted',
      why: 'takes the value at the rank without sorting the values first',
      solve: script(s, p, [`values = [float(row[1]) for row in rows if row[3] == sys.argv[1]]`, print(s, 'values[math.ceil(0.9 * len(values)) - 1]')]),
    },
  ],
};
