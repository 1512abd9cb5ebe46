// Chart data: one line per lineage, and across lineages the median with its interquartile
// and min–max bands, over generation number or over time.
import { quantile } from './stats.ts';
import type { BandPoint, DriftInput, GenerationPoint, LineSeries, Metric, MetricChart, XAxis } from './types.ts';

/** Time charts cut the covered span into this many buckets for the band. */
export const TIME_BUCKETS = 30;

function band(x: number, values: number[]): BandPoint {
  return {
    x,
    n: values.length,
    median: quantile(values, 0.5),
    q1: quantile(values, 0.25),
    q3: quantile(values, 0.75),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

/** Each lineage's points in generation order. */
export function pointsByLineage(input: DriftInput): Map<string, GenerationPoint[]> {
  const byLineage = new Map<string, GenerationPoint[]>(input.lineages.map((l) => [l.id, []]));
  for (const point of input.points) byLineage.get(point.lineageId)?.push(point);
  for (const points of byLineage.values()) points.sort((a, b) => a.number - b.number);
  return byLineage;
}

function linesOf(byLineage: Map<string, GenerationPoint[]>, metric: Metric, x: XAxis): LineSeries[] {
  const lines: LineSeries[] = [];
  for (const [lineageId, points] of byLineage) {
    const drawn: LineSeries['points'] = [];
    let previous: GenerationPoint | null = null; // the last position with a value
    let skipped = false; // a position without a value since then
    for (const p of points) {
      const y = p.values[metric];
      if (y === null || !Number.isFinite(y)) {
        skipped = true;
        continue;
      }
      const gapBefore = previous !== null && (skipped || p.number > previous.number + 1);
      drawn.push({ x: x === 'generation' ? p.number : p.at.getTime(), y, number: p.number, generationId: p.generationId, gapBefore });
      previous = p;
      skipped = false;
    }
    if (x === 'time') drawn.sort((a, b) => a.x - b.x);
    if (drawn.length > 0) lines.push({ lineageId, points: drawn });
  }
  return lines;
}

function bandOverGenerations(lines: LineSeries[]): BandPoint[] {
  const byNumber = new Map<number, number[]>();
  for (const line of lines) {
    for (const p of line.points) {
      const values = byNumber.get(p.x) ?? [];
      values.push(p.y);
      byNumber.set(p.x, values);
    }
  }
  return [...byNumber.entries()].sort(([a], [b]) => a - b).map(([x, values]) => band(x, values));
}

/**
 * Over time a lineage's value at t is that of its newest position created at or before t,
 * from its first position to its last (no extrapolation past either end). Each bucket takes
 * every lineage's value at the bucket's end.
 */
export function bandOverTime(lines: LineSeries[], buckets = TIME_BUCKETS): BandPoint[] {
  const xs = lines.flatMap((l) => l.points.map((p) => p.x));
  if (xs.length === 0) return [];
  const start = Math.min(...xs);
  const end = Math.max(...xs);
  if (start === end)
    return [
      band(
        start,
        lines.map((l) => l.points[l.points.length - 1]!.y),
      ),
    ];
  const width = (end - start) / buckets;
  const result: BandPoint[] = [];
  for (let i = 0; i < buckets; i += 1) {
    const bucketEnd = i === buckets - 1 ? end : start + width * (i + 1);
    const values: number[] = [];
    for (const line of lines) {
      const first = line.points[0]!.x;
      const last = line.points[line.points.length - 1]!.x;
      // The lineage counts in a bucket it overlaps: from its first point to its last.
      if (first > bucketEnd || last < bucketEnd - width) continue;
      let value: number | null = null;
      for (const p of line.points) {
        if (p.x > bucketEnd) break;
        value = p.y;
      }
      if (value !== null) values.push(value);
    }
    if (values.length > 0) result.push(band(start + width * (i + 0.5), values));
  }
  return result;
}

export function metricChart(input: DriftInput, metric: Metric, x: XAxis, byLineage = pointsByLineage(input)): MetricChart {
  const lines = linesOf(byLineage, metric, x);
  return { metric, lines, band: x === 'generation' ? bandOverGenerations(lines) : bandOverTime(lines) };
}
