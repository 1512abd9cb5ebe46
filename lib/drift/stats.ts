// Summary statistics for the drift charts. Quantiles interpolate linearly between order
// statistics (the usual "type 7" definition, as numpy and R compute them by default).

/** The q-quantile (0 ≤ q ≤ 1) of the values; NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower] as number;
  return low + ((sorted[upper] as number) - low) * (position - lower);
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** Sample standard deviation (n − 1); 0 for a single value, NaN for none. */
export function standardDeviation(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  if (values.length === 1) return 0;
  const m = mean(values);
  return Math.sqrt(values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1));
}

export interface Spread {
  n: number;
  mean: number;
  sd: number;
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
}

/** Everything the spectrum shows about a set of changes; null for none. */
export function spreadOf(values: readonly number[]): Spread | null {
  if (values.length === 0) return null;
  return {
    n: values.length,
    mean: mean(values),
    sd: standardDeviation(values),
    median: median(values),
    q1: quantile(values, 0.25),
    q3: quantile(values, 0.75),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

/**
 * A mean with its spread as text: "+1.5 ± 0.3 pp (n=4)", or "+1.5 pp (n = 1)" for a single
 * sample, whose standard deviation (0) would read as a certainty it is not.
 */
export function formatMeanSpread(spread: Pick<Spread, 'n' | 'mean' | 'sd'>, options: { scale: number; digits: number; unit: string }): string {
  const { scale, digits, unit } = options;
  const magnitude = Math.abs(spread.mean * scale).toFixed(digits);
  const signed = spread.mean > 0 ? `+${magnitude}` : spread.mean < 0 ? `−${magnitude}` : magnitude;
  if (spread.n === 1) return `${signed} ${unit} (n = 1)`;
  return `${signed} ± ${(spread.sd * scale).toFixed(digits)} ${unit} (n=${spread.n})`;
}
