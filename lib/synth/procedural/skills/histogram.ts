// Histogram bucketing with stated boundaries: bins of a fixed width from zero, a value on a
// boundary belongs to the bin it starts. The data holds values exactly on boundaries (bins closed
// on the right put them one bin lower) and an empty bin between others (it must not be printed).
import type { DataRecord } from '../records.ts';
import type { Skill } from '../skill.ts';
import { showUnits, unitScale } from './shaping.ts';

// A round bin width giving about six bins over the value range, in smallest units.
export function binWidth(max: number, scale: number): number {
  const raw = max / scale / 6;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((m) => m * magnitude >= raw)! * magnitude;
  return Math.max(1, step) * scale;
}

export function histogram(records: DataRecord[], width: number): [number, number][] {
  const bins = new Map<number, number>();
  for (const r of records) {
    const lower = Math.floor(r.value / width) * width;
    bins.set(lower, (bins.get(lower) ?? 0) + 1);
  }
  return [...bins].sort((a, b) => a[0] - b[0]);
}

export const histogramSkill: Skill = {
  name: 'histogram',
  title: 'histogram bucketing',
  materialise: ({ scenario, rng, records }) => {
    const width = binWidth(scenario.value.max, unitScale(scenario));
    const bins = histogram(records, width).map(([lower]) => lower);
    // Empty one inner bin: its records move to the bin above.
    if (bins.length >= 3) {
      const emptied = bins[rng.int(1, bins.length - 2)]!;
      for (const r of records) if (Math.floor(r.value / width) * width === emptied) r.value += width;
    } else {
      rng.pick(records).value = 3 * width + 1;
    }
    // Values exactly on a boundary: the lower edge of two occupied bins.
    for (const lower of histogram(records, width)
      .map(([l]) => l)
      .filter((l) => l > 0)
      .slice(0, 2))
      rng.pick(records.filter((r) => Math.floor(r.value / width) * width === lower)).value = lower;
    return {
      files: [{ path: scenario.fileName, content: scenario.render(records) }],
      answer: histogram(records, width)
        .map(([lower, n]) => `${showUnits(scenario, lower)} ${n}`)
        .join('\n'),
    };
  },
  task: (s) => {
    const width = showUnits(s, binWidth(s.value.max, unitScale(s)));
    return `Build a histogram of the ${s.nouns.value} over all ${s.nouns.records} in \`DATA/${s.fileName}\` with bins of width ${width} starting at 0: the bin with lower edge L holds the values v with L ≤ v < L + ${width} (a value exactly on an edge belongs to the bin it starts). Write one line per non-empty bin to OUT: the lower edge ${s.value.decimals === 0 ? 'as an integer' : 'with exactly 2 decimals'}, a space, and the number of ${s.nouns.records} in it; lines ordered by lower edge ascending; do not print empty bins.`;
  },
  solve: (s) => binAwk(s, 'floor', false),
  nearMisses: (s) => [
    { name: 'right-closed-bins', why: 'puts a value on an edge into the bin below it (bins closed on the right)', solve: binAwk(s, 'ceil', false) },
    { name: 'empty-bins-printed', why: 'prints every bin from the lowest to the highest, empty ones with 0', solve: binAwk(s, 'floor', true) },
  ],
};

function binAwk(s: Parameters<Skill['task']>[0], edge: 'floor' | 'ceil', all: boolean): string {
  const width = binWidth(s.value.max, unitScale(s));
  const units = s.value.decimals === 0 ? '$2 + 0' : 'int($2 * 100 + 0.5)';
  const bin = edge === 'floor' ? `int(u / ${width})` : `(u % ${width} == 0 && u > 0 ? u / ${width} - 1 : int(u / ${width}))`;
  const show = s.value.decimals === 0 ? `b * ${width}` : `sprintf("%d.%02d", int(b * ${width} / 100), (b * ${width}) % 100)`;
  return [
    `extract < "$d/${s.fileName}" | awk -F'\\t' '{ u = ${units}; b = ${bin}; n[b]++; if (!seen++ || b < lo) lo = b; if (b > hi) hi = b }`,
    `  END { for (b = lo; b <= hi; b++) if (${all ? '1' : 'b in n'}) print ${show}, n[b] + 0 }' > "$out"`,
  ].join('\n');
}
