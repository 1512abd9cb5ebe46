// The verdict banner. Its one hard rule: never a green light on too little data. "Trustworthy"
// needs both strata populated and no red flag; anything short of that is not green.

import type { CalibrationMetrics } from './metrics.ts';

export type TrustVerdict = 'trustworthy' | 'not-trustworthy' | 'insufficient-data';

export interface TrustOptions {
  /** Agreement (point estimate) below this is a red flag. */
  minAgreement?: number;
  /** A red flag when the FPR's whole 95% Wilson interval lies above this. */
  maxFalsePositiveRate?: number;
  /** Fewer human-pass or human-fail items than this and we cannot say. */
  minPerStratum?: number;
}

export interface TrustResult {
  verdict: TrustVerdict;
  /** Why — every condition that fired, plus caveats worth showing on a green banner. */
  reasons: string[];
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * Precedence: a red flag wins over "insufficient data". A failed check is evidence against the
 * verifier even on a small set, and hiding it behind "insufficient data" would invite "label a few
 * more and it'll go green"; the insufficiency is still listed among the reasons.
 *
 * Note the FPR rule is the one the issue sets: red only when the interval lies ENTIRELY above the
 * bar. An interval that straddles the bar does not turn the banner red; it is called out in the
 * reasons so a green banner never hides a point estimate above the bar.
 */
export function trustVerdict(m: CalibrationMetrics, options: TrustOptions = {}): TrustResult {
  const { minAgreement = 0.85, maxFalsePositiveRate = 0.05, minPerStratum = 10 } = options;
  if (!(minAgreement >= 0 && minAgreement <= 1)) throw new RangeError(`minAgreement must be in [0, 1], got ${minAgreement}`);
  if (!(maxFalsePositiveRate >= 0 && maxFalsePositiveRate <= 1)) {
    throw new RangeError(`maxFalsePositiveRate must be in [0, 1], got ${maxFalsePositiveRate}`);
  }
  if (!(Number.isInteger(minPerStratum) && minPerStratum >= 1)) {
    throw new RangeError(`minPerStratum must be a positive integer, got ${minPerStratum}`);
  }

  const red: string[] = [];
  const thin: string[] = [];
  const notes: string[] = [];
  const { agreement, falsePositiveRate: fpr } = m;

  if (agreement.value !== null && agreement.value < minAgreement) {
    red.push(`agreement ${pct(agreement.value)} is below the bar of ${pct(minAgreement)}`);
  }
  if (fpr.value !== null && fpr.ci95.low > maxFalsePositiveRate) {
    red.push(
      `false-positive rate ${pct(fpr.value)} (95% CI ${pct(fpr.ci95.low)}–${pct(fpr.ci95.high)}) lies entirely above the bar of ${pct(maxFalsePositiveRate)}`,
    );
  } else if (fpr.value !== null && fpr.value > maxFalsePositiveRate) {
    notes.push(
      `false-positive rate ${pct(fpr.value)} is above the bar of ${pct(maxFalsePositiveRate)}, but its 95% CI ${pct(fpr.ci95.low)}–${pct(fpr.ci95.high)} includes the bar`,
    );
  }

  if (agreement.value === null) thin.push(agreement.reason);
  if (m.humanPass < minPerStratum) thin.push(`only ${m.humanPass} human-passed item(s); need at least ${minPerStratum}`);
  if (m.humanFail < minPerStratum) thin.push(`only ${m.humanFail} human-failed item(s); need at least ${minPerStratum}`);
  if (fpr.value === null) thin.push(`false-positive rate is undefined: ${fpr.reason}`);
  if (m.unsure > 0) notes.push(`${m.unsure} unsure item(s) excluded`);

  if (red.length > 0) return { verdict: 'not-trustworthy', reasons: [...red, ...thin, ...notes] };
  if (thin.length > 0) return { verdict: 'insufficient-data', reasons: [...thin, ...notes] };
  return {
    verdict: 'trustworthy',
    reasons: [
      `agreement ${pct(agreement.value!)} ≥ ${pct(minAgreement)}`,
      `false-positive rate's 95% CI does not lie above ${pct(maxFalsePositiveRate)}`,
      `${m.humanPass} human-passed and ${m.humanFail} human-failed items (≥ ${minPerStratum} each)`,
      ...notes,
    ],
  };
}
