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
