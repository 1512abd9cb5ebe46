// The drift charts' series laid on one shared x array, as uPlot draws them. A value is a
// number where it was measured, null where the series must break (a generation in between
// was never measured: the line is not joined across it) and undefined where the series simply
// has no point at that x (another series does): uPlot joins across undefined.
import type { ChartSpec, ClientBand, ClientLine } from './chart-data.ts';

export type AlignedValue = number | null | undefined;

export type BandEdge = 'q1' | 'q3' | 'min' | 'max';

export interface AlignedChart {
  xs: number[];
  medians: AlignedValue[][]; // one per spec.series
  bands: Partial<Record<BandEdge, AlignedValue[]>>; // the first series' bands, when it shows them
  lines: AlignedValue[][]; // one per spec.lines
}

const BAND_EDGES: BandEdge[] = ['q1', 'q3', 'min', 'max'];

/** Every x any series has; over generations also every whole number between, so a generation nobody measured is a gap. */
export function sharedXs(spec: ChartSpec, time: boolean): number[] {
  const all = new Set<number>();
  for (const s of spec.series) for (const x of s.band.xs) all.add(x);
  for (const line of spec.lines) for (const x of line.xs) all.add(x);
  if (!time && all.size > 0) {
    const xs = [...all];
    for (let x = Math.min(...xs); x <= Math.max(...xs); x += 1) all.add(x);
  }
  return [...all].sort((a, b) => a - b);
}

// Over generations a band missing a generation inside its range breaks there; over time the
// band is bucketed and a missing bucket simply has no point.
function alignBand(xs: number[], band: ClientBand, values: number[], time: boolean): AlignedValue[] {
  const at = new Map(band.xs.map((x, i) => [x, values[i]!]));
  const first = band.xs[0] ?? Number.POSITIVE_INFINITY;
  const last = band.xs.at(-1) ?? Number.NEGATIVE_INFINITY;
  return xs.map((x) => at.get(x) ?? (!time && x > first && x < last ? null : undefined));
}

export function alignLine(xs: number[], line: ClientLine): AlignedValue[] {
  const out: AlignedValue[] = new Array<AlignedValue>(xs.length).fill(undefined);
  let j = 0;
  for (let i = 0; i < line.xs.length; i += 1) {
    const x = line.xs[i]!;
    const breaks = line.gaps.includes(i);
    while (j < xs.length && xs[j]! < x) {
      if (breaks && i > 0) out[j] = null; // between the previous point and this one
      j += 1;
    }
    if (j < xs.length && xs[j] === x) {
      out[j] = line.ys[i]!;
      j += 1;
    }
  }
  return out;
}

export function alignChart(spec: ChartSpec, time: boolean): AlignedChart {
  const xs = sharedXs(spec, time);
  const primary = spec.series[0];
  const bands: AlignedChart['bands'] = {};
  if (primary?.showBand) for (const edge of BAND_EDGES) bands[edge] = alignBand(xs, primary.band, primary.band[edge], time);
  return {
    xs,
    medians: spec.series.map((s) => alignBand(xs, s.band, s.band.median, time)),
    bands,
    lines: spec.lines.map((line) => alignLine(xs, line)),
  };
}

/** One x-range for every chart on the page, so the same generation or day sits at the same place in each. */
export function sharedRange(specs: ChartSpec[], time: boolean): [number, number] | null {
  const xs = specs.flatMap((spec) => sharedXs(spec, time));
  return xs.length === 0 ? null : [Math.min(...xs), Math.max(...xs)];
}
