// Summaries for benchmark samples: these machines are noisy, so report medians with min–max.
export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, n: sorted.length };
}

export function formatMs(s: Summary): string {
  return `${Math.round(s.median)} ms (min ${Math.round(s.min)}, max ${Math.round(s.max)}, n=${s.n})`;
}

export async function timed(body: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await body();
  return performance.now() - started;
}

/** Latency percentiles (nearest rank) of samples in ms. */
export interface Percentiles {
  p50: number;
  p95: number;
  n: number;
}

export function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  return { p50: Math.round(rank(50) * 10) / 10, p95: Math.round(rank(95) * 10) / 10, n: sorted.length };
}

export function formatPercentiles(p: Percentiles): string {
  return `p50 ${p.p50} ms, p95 ${p.p95} ms (n=${p.n})`;
}
