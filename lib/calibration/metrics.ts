// Verifier-vs-human calibration metrics. Pure functions, no I/O: the set's
// adjudicated human labels are the ground truth and the verifier is the thing being measured.
// "Positive" means "pass" throughout, so the false-positive rate — the headline — is the share of
// human-FAILED trajectories the verifier passed, i.e. how often a bad rollout would be rewarded.

import { cohenKappaTable, type HumanLabel, type Kappa } from './metrics-kappa.ts';
import { rate, type Rate } from './metrics-wilson.ts';

export type VerifierVerdict = 'pass' | 'fail';

export interface CalibrationItem {
  verifier: VerifierVerdict;
  /** The final (adjudicated) human label. */
  human: HumanLabel;
}

/** Humans are ground truth: TP = verifier pass & human pass, FP = verifier pass & human fail, etc. */
export interface ConfusionMatrix {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

export interface CalibrationMetrics {
  confusion: ConfusionMatrix;
  /** Items used (human pass or fail). */
  scored: number;
  /** Items a human marked "unsure": excluded from every metric, but reported so the exclusion is visible. */
  unsure: number;
  /** Human-pass items (TP + FN) and human-fail items (FP + TN): the two strata the verdict checks. */
  humanPass: number;
  humanFail: number;
  /** (TP + TN) / scored. */
  agreement: Rate;
  /** Cohen's κ between verifier and humans over the scored items. */
  kappa: Kappa;
  /** TP / (TP + FP): of what the verifier passed, how much humans passed. */
  precision: Rate;
  /** FP / (FP + TN): of what humans failed, how much the verifier passed. The headline. */
  falsePositiveRate: Rate;
  /** FN / (FN + TP). */
  falseNegativeRate: Rate;
  /** TP / (TP + FN), a.k.a. recall / sensitivity. */
  truePositiveRate: Rate;
  /** TN / (TN + FP), a.k.a. specificity. */
  trueNegativeRate: Rate;
}

export const NO_NEGATIVES = 'no negatives: no item in the set was failed by a human';
export const NO_POSITIVES = 'no positives: no item in the set was passed by a human';
export const NO_VERIFIER_PASSES = 'the verifier passed no item';
export const NO_ITEMS = 'no scored items (every item is unsure or the set is empty)';

/** Tally items into the confusion matrix; "unsure" human labels are counted separately. */
export function confusionOf(items: readonly CalibrationItem[]): { confusion: ConfusionMatrix; unsure: number } {
  const confusion: ConfusionMatrix = { tp: 0, fp: 0, fn: 0, tn: 0 };
  let unsure = 0;
  for (const { verifier, human } of items) {
    if (human === 'unsure') unsure += 1;
    else if (verifier === 'pass') confusion[human === 'pass' ? 'tp' : 'fp'] += 1;
    else confusion[human === 'pass' ? 'fn' : 'tn'] += 1;
  }
  return { confusion, unsure };
}

/** All metrics from a confusion matrix (plus the count of excluded unsure items, for reporting). */
export function metricsFromConfusion(confusion: ConfusionMatrix, unsure = 0): CalibrationMetrics {
  const { tp, fp, fn, tn } = confusion;
  for (const [k, v] of Object.entries({ ...confusion, unsure })) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`metricsFromConfusion: ${k} must be a non-negative integer, got ${v}`);
  }
  const scored = tp + fp + fn + tn;
  return {
    confusion: { tp, fp, fn, tn },
    scored,
    unsure,
    humanPass: tp + fn,
    humanFail: fp + tn,
    agreement: rate(tp + tn, scored, NO_ITEMS),
    // Rows = verifier (pass, fail), columns = human (pass, fail).
    kappa: cohenKappaTable([
      [tp, fp],
      [fn, tn],
    ]),
    precision: rate(tp, tp + fp, NO_VERIFIER_PASSES),
    falsePositiveRate: rate(fp, fp + tn, NO_NEGATIVES),
    falseNegativeRate: rate(fn, fn + tp, NO_POSITIVES),
    truePositiveRate: rate(tp, tp + fn, NO_POSITIVES),
    trueNegativeRate: rate(tn, tn + fp, NO_NEGATIVES),
  };
}

/** All metrics from the labelled items. */
export function calibrationMetrics(items: readonly CalibrationItem[]): CalibrationMetrics {
  const { confusion, unsure } = confusionOf(items);
  return metricsFromConfusion(confusion, unsure);
}

export type { HumanLabel, Kappa } from './metrics-kappa.ts';
export type { Interval, Rate } from './metrics-wilson.ts';
