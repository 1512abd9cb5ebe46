// The latency profile's arithmetic: percentiles of rollout wall times, and the concurrency
// ceiling from a throughput curve measured at doubling levels (1, 2, 4, 8…).

// Nearest-rank percentile (the smallest value with at least p% of the samples at or below it):
// always a value that was observed. Of few samples it is their maximum, which is not a p99:
// `latencySummary` reports a percentile only from enough samples to tell it from the maximum.
export function percentile(values: number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of no samples');
  if (!(p > 0 && p <= 100)) throw new Error(`percentile must be in (0, 100], got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
}

// The smallest sample whose nearest-rank p-th percentile is not its maximum, the least K with
// ceil(p/100·K) < K: p50 needs 2, p95 20, p99 100.
export function minSamplesFor(p: number): number {
  if (!(p > 0 && p < 100)) throw new Error(`percentile must be in (0, 100), got ${p}`);
  let k = 1;
  while (Math.ceil((p / 100) * k) >= k) k++;
  return k;
}

export interface LatencySummary {
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  // The percentiles left out and the sample each needs, e.g. "p99 needs 101 rollouts (have 40)".
  needMoreSamples: string[];
}

export function latencySummary(durationsMs: number[]): LatencySummary {
  const needMoreSamples: string[] = [];
  const at = (p: number): number | null => {
    const need = minSamplesFor(p);
    if (durationsMs.length >= need) return percentile(durationsMs, p);
    needMoreSamples.push(`p${p} needs ${need} rollouts (have ${durationsMs.length})`);
    return null;
  };
  return { p50Ms: at(50), p95Ms: at(95), p99Ms: at(99), needMoreSamples };
}

export interface CurvePoint {
  concurrency: number;
  rollouts: number;
  wallMs: number; // from the first start to the last finish at this level
  rolloutsPerMin: number;
  errors: number; // rollouts that errored or timed out at this level
  p50Ms: number | null;
}

// Throughput must rise by more than this over the previous level to count as an improvement.
export const MIN_IMPROVEMENT = 0.1;

export function rolloutsPerMinute(rollouts: number, wallMs: number): number {
  if (wallMs <= 0) throw new Error(`wall time must be positive, got ${wallMs}`);
  return (rollouts * 60_000) / wallMs;
}

// Whether the level just measured still improved on the one before (and had no errors): the
// climb stops at the first level that did not. Level one improves on nothing, so it counts when
// it ran clean.
export function improved(curve: CurvePoint[], index: number): boolean {
  const point = curve[index]!;
  if (point.errors > 0) return false;
  if (index === 0) return true;
  return point.rolloutsPerMin > curve[index - 1]!.rolloutsPerMin * (1 + MIN_IMPROVEMENT);
}

// The last level that still improved; 0 when even one rollout at a time errors.
export function concurrencyCeiling(curve: CurvePoint[]): number {
  let ceiling = 0;
  for (let i = 0; i < curve.length; i++) {
    if (!improved(curve, i)) break;
    ceiling = curve[i]!.concurrency;
  }
  return ceiling;
}

// 1, 2, 4, … up to and including max (max itself when it is not a power of two).
export function concurrencyLevels(max: number): number[] {
  if (!Number.isInteger(max) || max < 1) throw new Error(`max concurrency must be a positive integer, got ${max}`);
  const levels: number[] = [];
  for (let c = 1; c < max; c *= 2) levels.push(c);
  levels.push(max);
  return levels;
}
