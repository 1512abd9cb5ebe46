export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 5_000, maxMs: 15 * 60_000 };

/** Delay before the next attempt: base after the first failure, doubling each time, capped. */
export function retryDelayMs(attemptsMade: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const exponent = Math.max(0, attemptsMade - 1);
  return Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
}
