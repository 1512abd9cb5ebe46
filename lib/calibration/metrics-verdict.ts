// The verdict banner. It decides on the population estimates' intervals, never on a point:
// "trustworthy" only when the whole FPR interval is under its bar and the whole agreement
// interval is over its bar, with both strata populated. Anything short of that is not green.

import type { CalibrationMetrics } from './metrics.ts';
import type { PopulationEstimates } from './metrics-population.ts';

export type TrustVerdict = 'trustworthy' | 'not-trustworthy' | 'insufficient-data';

export interface TrustOptions {
  /** Agreement's 95% interval must lie above this; a point estimate below it is a red flag. */
  minAgreement?: number;
  /** The FPR's 95% interval must lie under this; a point estimate above it is a red flag. */
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
 * Precedence: a red flag (a point estimate on the wrong side of its bar) wins over "insufficient
 * data": it is evidence against the verifier even on a small set, and hiding it would invite
 * "label a few more and it'll go green". An interval that reaches across a bar is insufficient
 * data: the set cannot tell yet. `sample` gives the per-stratum tallies; `population` the
 * weighted estimates the bars are applied to.
 */
export function trustVerdict(sample: CalibrationMetrics, population: PopulationEstimates, options: TrustOptions = {}): TrustResult {
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
  const notes: string[] = [...population.notes];
  const { agreement, falsePositiveRate: fpr } = population;
  const ci = (i: { low: number; high: number }) => `95% interval ${pct(i.low)}–${pct(i.high)}`;

  if (fpr.value !== null && fpr.value > maxFalsePositiveRate) {
    red.push(`estimated false-positive rate ${pct(fpr.value)} (${ci(fpr.ci95)}) is above the bar of ${pct(maxFalsePositiveRate)}`);
  } else if (fpr.value !== null && fpr.ci95.high >= maxFalsePositiveRate) {
    thin.push(`the false-positive rate's ${ci(fpr.ci95)} reaches the bar of ${pct(maxFalsePositiveRate)}: more labelled human-failed items would narrow it`);
  }
  if (agreement.value !== null && agreement.value < minAgreement) {
    red.push(`estimated agreement ${pct(agreement.value)} (${ci(agreement.ci95)}) is below the bar of ${pct(minAgreement)}`);
  } else if (agreement.value !== null && agreement.ci95.low <= minAgreement) {
    thin.push(`agreement's ${ci(agreement.ci95)} reaches down to the bar of ${pct(minAgreement)}: more labels would narrow it`);
  }

  if (agreement.value === null) thin.push(`agreement is undefined: ${agreement.reason}`);
  if (sample.humanPass < minPerStratum) thin.push(`only ${sample.humanPass} human-passed item(s); need at least ${minPerStratum}`);
  if (sample.humanFail < minPerStratum) thin.push(`only ${sample.humanFail} human-failed item(s); need at least ${minPerStratum}`);
  if (fpr.value === null) thin.push(`false-positive rate is undefined: ${fpr.reason}`);
  if (sample.unsure > 0) notes.push(`${sample.unsure} unsure item(s) excluded`);

  if (red.length > 0) return { verdict: 'not-trustworthy', reasons: [...red, ...thin, ...notes] };
  if (thin.length > 0) return { verdict: 'insufficient-data', reasons: [...thin, ...notes] };
  return {
    verdict: 'trustworthy',
    reasons: [
      `false-positive rate ${pct(fpr.value!)}, ${ci(fpr.ci95!)}, lies under the bar of ${pct(maxFalsePositiveRate)}`,
      `agreement ${pct(agreement.value!)}, ${ci(agreement.ci95!)}, lies above the bar of ${pct(minAgreement)}`,
      `${sample.humanPass} human-passed and ${sample.humanFail} human-failed items (≥ ${minPerStratum} each)`,
      ...notes,
    ],
  };
}
