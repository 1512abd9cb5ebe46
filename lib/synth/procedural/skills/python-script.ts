import { decimalsPhrase, show, type Skill } from '../skill.ts';

export const pythonScript: Skill = {
  name: 'python-script',
  title: 'statistics in a Python script',
  materialise: ({ scenario, params, records }) => {
    const values = records
      .filter((r) => r.category === params.category)
      .map((r) => r.value)
      .sort((a, b) => a - b);
    // Same float expression as the Python solution: both are IEEE doubles.
    return { files: [{ path: scenario.fileName, content: scenario.render(records) }], answer: show(scenario, values[Math.ceil(0.9 * values.length) - 1]!) };
  },
  task: (s, p) =>
    `Compute the 90th percentile of the ${s.nouns.value} over the ${s.nouns.records} in \`DATA/${s.fileName}\` whose ${s.nouns.category} is \`${p.category}\`, by the nearest-rank method: sort the n values ascending and take the one at 1-based rank ⌈0.9·n⌉. Write it to OUT ${decimalsPhrase(s)}.`,
  solve: (s, p) =>
    [
      `extract < "$d/${s.fileName}" | python3 -c '`,
      `import math, sys`,
      `rows = [line.rstrip("\\n").split("\\t") for line in sys.stdin]`,
      `values = sorted(float(row[1]) for row in rows if row[3] == sys.argv[1])`,
      `print(f"{values[math.ceil(0.9 * len(values)) - 1]:.${s.value.decimals}f}")' '${p.category}' > "$out"`,
    ].join('\n'),
};
