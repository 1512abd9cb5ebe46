// Proportions with honest uncertainty. Every rate the calibration page shows is a proportion of a
// small sample (a default set is 50 items, split between two strata), so a bare point estimate
// would overstate what we know. We use the Wilson score interval rather than the textbook Wald
// interval because Wald collapses to [p, p] at p = 0 or 1 and undercovers badly at n ≈ 20–50 —
// exactly the regime here (a verifier with 0 false positives out of 15 is NOT known to be perfect).

/** Two-sided 95% normal quantile, to the precision the issue fixes (Φ⁻¹(0.975)). */
export const Z95 = 1.959964;

export interface Interval {
  low: number;
  high: number;
}

/**
 * A proportion with its Wilson interval, or — when its denominator is empty — null with the reason.
 * A zero denominator is reported, never turned into NaN or a made-up 0: "FPR = 0" would read as
 * "the verifier never passes bad work" when in fact no bad work was in the sample.
 */
export type Rate =
  | { value: number; numerator: number; denominator: number; ci95: Interval; reason: null }
  | { value: null; numerator: 0; denominator: 0; ci95: null; reason: string };

/**
 * Wilson score interval for `successes` out of `n`:
 *   centre = (p + z²/2n) / (1 + z²/n)
 *   half   = z / (1 + z²/n) · √( p(1−p)/n + z²/4n² )
 * Throws on n ≤ 0 (callers go through `rate`, which turns that into a null with a reason).
 */
export function wilsonInterval(successes: number, n: number, z: number = Z95): Interval {
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`wilsonInterval: n must be a positive integer, got ${n}`);
  if (!Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new RangeError(`wilsonInterval: successes must be an integer in [0, ${n}], got ${successes}`);
  }
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Mathematically the bounds are already in [0, 1] (exactly 0 at p = 0, exactly 1 at p = 1);
  // the clamp only removes floating-point dust such as -1e-17, which would print as "-0.0%".
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** numerator / denominator with its 95% Wilson interval; null with `emptyReason` when denominator = 0. */
export function rate(numerator: number, denominator: number, emptyReason: string): Rate {
  if (denominator === 0) return { value: null, numerator: 0, denominator: 0, ci95: null, reason: emptyReason };
  return {
    value: numerator / denominator,
    numerator,
    denominator,
    ci95: wilsonInterval(numerator, denominator),
    reason: null,
  };
}
