// GET /api/drift's JSON: the drift page in a columnar form. At the paper's scale (127 lineages ×
// 15 generations) the charts hold about 20,000 line points; as one object each, with its
// generation id repeated in all ten metrics, the answer was 1.75 MB. Here each line and band is a
// set of parallel arrays, values are rounded as the page rounds them (4 decimals: a chart shows
// fewer), and each generation id is given once, by lineage and number.
import type { DriftPage } from './load-view.ts';
import type { DifficultyOutcomeRow } from './difficulty-outcome.ts';
import { METRICS, type BandPoint, type LineSeries, type Metric, type MetricChart } from './types.ts';

/** Rounded to what a chart or a table can show. */
export const roundValue = (v: number) => Math.round(v * 10_000) / 10_000;
const roundOrNull = (v: number | null) => (v === null ? null : roundValue(v));

/** A band, one array per field of BandPoint: index i of each is one x. */
export interface WireBand {
  xs: number[];
  n: number[];
  median: number[];
  q1: number[];
  q3: number[];
  min: number[];
  max: number[];
}

/** One lineage's line: index i of each array is one point. */
export interface WireLine {
  lineageId: string;
  xs: number[]; // generation number, or epoch ms
  ys: number[];
  numbers: number[]; // the generation number of each point (0: the seed); its id is in `generationIds`
  gaps: number[]; // indices of the points not joined to the previous one (a position between has no value)
}

export interface WireChart {
  metric: Metric;
  band: WireBand;
  lines: WireLine[];
}

export interface WireOutcomeRow extends Omit<DifficultyOutcomeRow, 'points'> {
  points: { ds: number[]; passRates: (number | null)[]; meanTurns: (number | null)[] };
}

export interface DriftWire extends Omit<DriftPage, 'charts' | 'difficultyOutcome'> {
  charts: Record<Metric, WireChart>;
  // Per lineage, indexed by generation number: the id of the generation each chart point is of
  // (null: the seed, or a number no chart point has).
  generationIds: Record<string, (string | null)[]>;
  difficultyOutcome: WireOutcomeRow[];
}

export function wireBand(band: BandPoint[]): WireBand {
  return {
    xs: band.map((p) => p.x),
    n: band.map((p) => p.n),
    median: band.map((p) => roundValue(p.median)),
    q1: band.map((p) => roundValue(p.q1)),
    q3: band.map((p) => roundValue(p.q3)),
    min: band.map((p) => roundValue(p.min)),
    max: band.map((p) => roundValue(p.max)),
  };
}

export function wireLine(line: LineSeries): WireLine {
  return {
    lineageId: line.lineageId,
    xs: line.points.map((p) => p.x),
    ys: line.points.map((p) => roundValue(p.y)),
    numbers: line.points.map((p) => p.number),
    gaps: line.points.flatMap((p, i) => (p.gapBefore ? [i] : [])),
  };
}

export function wireChart(chart: MetricChart): WireChart {
  return { metric: chart.metric, band: wireBand(chart.band), lines: chart.lines.map(wireLine) };
}

/** Every chart point's generation id, once per lineage and number. */
export function generationIdsOf(charts: Record<Metric, MetricChart>): Record<string, (string | null)[]> {
  const ids: Record<string, (string | null)[]> = {};
  for (const metric of METRICS) {
    for (const line of charts[metric].lines) {
      const of = (ids[line.lineageId] ??= []);
      for (const p of line.points) {
        while (of.length <= p.number) of.push(null);
        of[p.number] ??= p.generationId;
      }
    }
  }
  return ids;
}

export type WireOutcomePoints = WireOutcomeRow['points'];

/** An outcome row's points as columns, rounded. */
export function wireOutcomePoints(points: DifficultyOutcomeRow['points']): WireOutcomePoints {
  return {
    ds: points.map((p) => roundValue(p.d)),
    passRates: points.map((p) => roundOrNull(p.passRate)),
    meanTurns: points.map((p) => roundOrNull(p.meanTurns)),
  };
}

function wireOutcomeRow({ points, passRate, meanTurns, ...row }: DifficultyOutcomeRow): WireOutcomeRow {
  return {
    ...row,
    passRate: { r: roundOrNull(passRate.r), n: passRate.n },
    meanTurns: { r: roundOrNull(meanTurns.r), n: meanTurns.n },
    points: wireOutcomePoints(points),
  };
}

/** The page, without its alerts (computed per read), in the wire form. */
export function driftWire(page: Omit<DriftPage, 'alerts'>): Omit<DriftWire, 'alerts'> {
  const { charts, difficultyOutcome, ...rest } = page;
  return {
    ...rest,
    charts: Object.fromEntries(METRICS.map((m) => [m, wireChart(charts[m])])) as Record<Metric, WireChart>,
    generationIds: generationIdsOf(charts),
    difficultyOutcome: difficultyOutcome.map(wireOutcomeRow),
  };
}
