// The axis effect spectrum, as the method's ablation reports it: what one edit along an axis
// does to the probe pass rate and to the mean turns (generation n against n − 1, where
// generation n took that axis), and what `horizon` edits along that axis alone do (generation
// `horizon` against the seed, in lineages that only ever took that axis). The paper's claim to
// check: the single-step effect times the horizon agrees with the cumulative one.
import { pointsByLineage } from './series.ts';
import { spreadOf, type Spread } from './stats.ts';
import { AXES, type Axis, type DriftInput, type GenerationPoint, type Metric } from './types.ts';

export const SPECTRUM_METRICS = ['passRate', 'meanTurns'] as const satisfies readonly Metric[];
export type SpectrumMetric = (typeof SPECTRUM_METRICS)[number];

export const DEFAULT_HORIZON = 15;

export interface AxisEffect {
  axis: Axis;
  edits: number; // generations that took this axis
  step: Record<SpectrumMetric, Spread | null>; // per edit: value(n) − value(n − 1)
  cumulative: Record<SpectrumMetric, Spread | null>; // value(horizon) − value(0), single-axis lineages
  cumulativeLineages: number;
}

export interface EffectSpectrum {
  horizon: number;
  axes: AxisEffect[];
  // Lineages that mixed axes and reached the horizon: their total change, for comparison.
  mixed: { lineages: number; cumulative: Record<SpectrumMetric, Spread | null> };
}

function emptyChanges(): Record<SpectrumMetric, number[]> {
  return { passRate: [], meanTurns: [] };
}

function spreads(changes: Record<SpectrumMetric, number[]>): Record<SpectrumMetric, Spread | null> {
  return { passRate: spreadOf(changes.passRate), meanTurns: spreadOf(changes.meanTurns) };
}

function pushChange(into: Record<SpectrumMetric, number[]>, from: GenerationPoint, to: GenerationPoint): void {
  for (const metric of SPECTRUM_METRICS) {
    const a = from.values[metric];
    const b = to.values[metric];
    if (a !== null && b !== null) into[metric].push(b - a);
  }
}

export function effectSpectrum(input: DriftInput, horizon = DEFAULT_HORIZON): EffectSpectrum {
  const steps = new Map<Axis, Record<SpectrumMetric, number[]>>(AXES.map((a) => [a, emptyChanges()]));
  const edits = new Map<Axis, number>(AXES.map((a) => [a, 0]));
  const cumulative = new Map<Axis, { changes: Record<SpectrumMetric, number[]>; lineages: number }>(
    AXES.map((a) => [a, { changes: emptyChanges(), lineages: 0 }]),
  );
  const mixed = { changes: emptyChanges(), lineages: 0 };

  for (const points of pointsByLineage(input).values()) {
    const byNumber = new Map(points.map((p) => [p.number, p]));
    for (const point of points) {
      if (point.axis === null) continue;
      edits.set(point.axis, (edits.get(point.axis) ?? 0) + 1);
      const parent = byNumber.get(point.number - 1);
      if (parent) pushChange(steps.get(point.axis)!, parent, point);
    }
    const seed = byNumber.get(0);
    const last = byNumber.get(horizon);
    if (!seed || !last) continue;
    const path = Array.from({ length: horizon }, (_, i) => byNumber.get(i + 1));
    if (path.some((p) => !p || p.axis === null)) continue;
    const axes = new Set(path.map((p) => p!.axis as Axis));
    const target = axes.size === 1 ? cumulative.get([...axes][0]!)! : mixed;
    pushChange(target.changes, seed, last);
    target.lineages += 1;
  }

  return {
    horizon,
    axes: AXES.map((axis) => ({
      axis,
      edits: edits.get(axis) ?? 0,
      step: spreads(steps.get(axis)!),
      cumulative: spreads(cumulative.get(axis)!.changes),
      cumulativeLineages: cumulative.get(axis)!.lineages,
    })),
    mixed: { lineages: mixed.lineages, cumulative: spreads(mixed.changes) },
  };
}
