import { describe, expect, it } from 'vitest';
import { calibrationMetrics, metricsFromConfusion, NO_NEGATIVES, NO_POSITIVES, type CalibrationItem, type ConfusionMatrix, type Rate } from './metrics.ts';
import { populationEstimates } from './metrics-population.ts';
import { trustVerdict, type TrustOptions } from './metrics-verdict.ts';
import { wilsonInterval, Z95 } from './metrics-wilson.ts';

// z = 1.959964, z² = 3.841459. Wilson: centre = (p + z²/2n)/(1 + z²/n),
// half = z/(1 + z²/n)·√(p(1−p)/n + z²/4n²). Expected values below are worked out by hand from these.
const DIGITS = 5; // toBeCloseTo(x, 5): |Δ| < 5e-6

function expectRate(r: Rate, value: number, low: number, high: number) {
  expect(r.reason).toBeNull();
  expect(r.value).toBeCloseTo(value, DIGITS);
  expect(r.ci95?.low).toBeCloseTo(low, DIGITS);
  expect(r.ci95?.high).toBeCloseTo(high, DIGITS);
}

describe('wilsonInterval', () => {
  it('ANCHORS: 45 of 50 (0.90 agreement) → ≈ [0.79, 0.96]', () => {
    // z²/n = 0.0768292, 1 + z²/n = 1.0768292
    // centre = (0.9 + 0.0384146)/1.0768292 = 0.871462
    // half   = 1.959964/1.0768292 · √(0.09/50 + 3.841459/10000) = 1.820128 · √0.002184146 = 0.085064
    // → [0.786398, 0.956524]
    const ci = wilsonInterval(45, 50);
    expect(ci.low).toBeCloseTo(0.786398, DIGITS);
    expect(ci.high).toBeCloseTo(0.956524, DIGITS);
    expect(ci.low.toFixed(2)).toBe('0.79');
    expect(ci.high.toFixed(2)).toBe('0.96');
  });

  it('has the closed forms at the edges: 0/n → [0, z²/(n+z²)], n/n → [n/(n+z²), 1]', () => {
    // 0/15: high = 3.841459/18.841459 = 0.203883 ; 30/30: low = 30/33.841459 = 0.886487
    expect(wilsonInterval(0, 15)).toEqual({ low: 0, high: expect.closeTo(0.203883, DIGITS) });
    expect(wilsonInterval(30, 30)).toEqual({ low: expect.closeTo(0.886487, DIGITS), high: 1 });
    expect(Z95 * Z95).toBeCloseTo(3.841459, 6);
  });

  it('rejects an empty or impossible sample instead of returning NaN', () => {
    expect(() => wilsonInterval(0, 0)).toThrow(RangeError);
    expect(() => wilsonInterval(5, 4)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 4)).toThrow(RangeError);
  });
});

describe('metricsFromConfusion', () => {
  it('typical: TP 20, FP 3, FN 2, TN 25', () => {
    const m = metricsFromConfusion({ tp: 20, fp: 3, fn: 2, tn: 25 });
    expect(m.scored).toBe(50);
    expect([m.humanPass, m.humanFail]).toEqual([22, 28]);
    // agreement = (20 + 25)/50 = 0.9 → the ANCHORS interval
    expectRate(m.agreement, 0.9, 0.786398, 0.956524);
    // κ: verifier pass/fail = 23/27, human pass/fail = 22/28; p_o = 0.9
    // p_e = (23·22 + 27·28)/50² = (506 + 756)/2500 = 0.5048
    // κ = (0.9 − 0.5048)/(1 − 0.5048) = 0.3952/0.4952 = 0.798061
    expect(m.kappa.value).toBeCloseTo(0.798061, DIGITS);
    // precision = 20/23 = 0.869565: z²/n = 0.167020, centre = (0.869565 + 0.083510)/1.167020 = 0.816674,
    //   half = 1.679460·√(0.113422/23 + 3.841459/2116) = 1.679460·√0.006746862 = 0.137949 → [0.678725, 0.954623]
    expectRate(m.precision, 20 / 23, 0.678725, 0.954623);
    // FPR = 3/28 = 0.107143: z²/n = 0.137195, centre = (0.107143 + 0.068598)/1.137195 = 0.154539,
    //   half = 1.723506·√(0.095663/28 + 3.841459/3136) = 1.723506·√0.004641464 = 0.117421 → [0.037118, 0.271959]
    expectRate(m.falsePositiveRate, 3 / 28, 0.037118, 0.271959);
    // FNR = 2/22 = 0.090909 → [0.025295, 0.278149]; TPR = 20/22 is its mirror → [1 − 0.278149, 1 − 0.025295]
    expectRate(m.falseNegativeRate, 2 / 22, 0.025295, 0.278149);
    expectRate(m.truePositiveRate, 20 / 22, 0.721851, 0.974705);
    // TNR = 25/28 mirrors FPR = 3/28 → [1 − 0.271959, 1 − 0.037118]
    expectRate(m.trueNegativeRate, 25 / 28, 0.728041, 0.962882);
  });

  it('perfect agreement: TP 15, TN 15 → κ = 1, FPR 0 with a non-trivial upper bound', () => {
    const m = metricsFromConfusion({ tp: 15, fp: 0, fn: 0, tn: 15 });
    // p_e = (15·15 + 15·15)/30² = 0.5 → κ = (1 − 0.5)/(1 − 0.5) = 1
    expect(m.kappa.value).toBe(1);
    // agreement 30/30: low = 30/(30 + 3.841459) = 0.886487
    expectRate(m.agreement, 1, 0.886487, 1);
    // FPR 0/15: high = 3.841459/18.841459 = 0.203883 — 0 FPs in 15 does NOT prove FPR < 5%
    expectRate(m.falsePositiveRate, 0, 0, 0.203883);
    expectRate(m.precision, 1, 0.796117, 1); // 15/15: low = 15/18.841459
  });

  it('all pass (no negatives): FPR and TNR null with the reason, κ degenerate (null, never NaN)', () => {
    const m = metricsFromConfusion({ tp: 30, fp: 0, fn: 0, tn: 0 });
    expect(m.falsePositiveRate).toEqual({ value: null, numerator: 0, denominator: 0, ci95: null, reason: NO_NEGATIVES });
    expect(m.trueNegativeRate.value).toBeNull();
    expect(m.trueNegativeRate.reason).toMatch(/^no negatives/);
    // p_e = (30·30 + 0·0)/30² = 1 → κ = 0/0: undefined
    expect(m.kappa.value).toBeNull();
    expect(m.kappa.reason).toMatch(/chance agreement is 1/);
    expectRate(m.agreement, 1, 0.886487, 1);
    expectRate(m.truePositiveRate, 1, 0.886487, 1);
    expectRate(m.falseNegativeRate, 0, 0, 0.113513); // 0/30: 3.841459/33.841459
    expect(JSON.stringify(m)).not.toContain('NaN');
  });

  it('verifier says pass to everything but humans disagree: κ = 0, not undefined', () => {
    // verifier 30 pass / 0 fail; human 20 pass / 10 fail. p_o = 20/30, p_e = (30·20 + 0·10)/900 = 2/3 → κ = 0
    const m = metricsFromConfusion({ tp: 20, fp: 10, fn: 0, tn: 0 });
    expect(m.kappa.value).toBe(0);
    expect(m.falsePositiveRate.value).toBe(1);
  });

  it('no positives: TP 0, FP 4, FN 0, TN 26 → TPR/FNR null, precision 0 (not null: the verifier did pass 4)', () => {
    const m = metricsFromConfusion({ tp: 0, fp: 4, fn: 0, tn: 26 });
    expect(m.truePositiveRate.reason).toBe(NO_POSITIVES);
    expect(m.falseNegativeRate.value).toBeNull();
    expect(m.falseNegativeRate.reason).toBe(NO_POSITIVES);
    expectRate(m.precision, 0, 0, 0.489891); // 0/4: 3.841459/7.841459
    // κ: verifier 4/26, human 0/30; p_o = 26/30, p_e = (4·0 + 26·30)/900 = 780/900 = 26/30 → κ = 0
    expect(m.kappa.value).toBe(0);
    // FPR = 4/30 = 0.133333: centre = (0.133333 + 0.064024)/1.128049 = 0.174955,
    //   half = 1.737481·√(0.115556/30 + 3.841459/3600) = 1.737481·√0.004918922 = 0.121858 → [0.053097, 0.296813]
    expectRate(m.falsePositiveRate, 4 / 30, 0.053097, 0.296813);
    expectRate(m.agreement, 26 / 30, 0.703187, 0.946903);
  });

  it('empty set: every rate null, κ null, nothing NaN', () => {
    const m = metricsFromConfusion({ tp: 0, fp: 0, fn: 0, tn: 0 }, 3);
    expect(m.agreement.value).toBeNull();
    expect(m.kappa.value).toBeNull();
    expect(m.unsure).toBe(3);
    expect(JSON.stringify(m)).not.toContain('NaN');
  });

  it('rejects non-integer or negative counts', () => {
    expect(() => metricsFromConfusion({ tp: -1, fp: 0, fn: 0, tn: 0 })).toThrow(RangeError);
    expect(() => metricsFromConfusion({ tp: 1.5, fp: 0, fn: 0, tn: 0 })).toThrow(RangeError);
  });
});

describe('calibrationMetrics (from items)', () => {
  it('maps verdict × label to the confusion matrix and excludes-but-counts unsure', () => {
    const items: CalibrationItem[] = [
      { verifier: 'pass', human: 'pass' }, // TP
      { verifier: 'pass', human: 'pass' }, // TP
      { verifier: 'pass', human: 'fail' }, // FP
      { verifier: 'fail', human: 'pass' }, // FN
      { verifier: 'fail', human: 'fail' }, // TN
      { verifier: 'pass', human: 'unsure' },
      { verifier: 'fail', human: 'unsure' },
    ];
    const m = calibrationMetrics(items);
    expect(m.confusion).toEqual({ tp: 2, fp: 1, fn: 1, tn: 1 });
    expect(m.unsure).toBe(2);
    expect(m.scored).toBe(5);
    expect(m.agreement.value).toBeCloseTo(3 / 5, 12); // unsure not in the denominator
  });
});

// The banner on sets whose population split equals the sample's (weights 1), so the estimates
// are the tallies and only the interval rule is under test; weighted cases are in
// metrics-population.test.ts.
function verdictOf(confusion: ConfusionMatrix, options: TrustOptions = {}, unsure = 0) {
  const sample = metricsFromConfusion(confusion, unsure);
  const population = populationEstimates(confusion, {
    design: 'stratified',
    population: { pass: confusion.tp + confusion.fp, fail: confusion.fn + confusion.tn },
    seed: 1,
  });
  return trustVerdict(sample, population, options);
}

describe('trustVerdict (on the intervals)', () => {
  it('a typical matrix whose FPR point is above the bar is not trustworthy', () => {
    const r = verdictOf({ tp: 20, fp: 3, fn: 2, tn: 25 });
    expect(r.verdict).toBe('not-trustworthy');
    expect(r.reasons[0]).toMatch(/estimated false-positive rate 10\.7% \(95% interval .*\) is above the bar of 5\.0%/);
  });

  it('perfect agreement with 15 per stratum is not green: the FPR interval reaches the bar', () => {
    const r = verdictOf({ tp: 15, fp: 0, fn: 0, tn: 15 });
    expect(r.verdict).toBe('insufficient-data');
    expect(r.reasons.join('\n')).toMatch(/false-positive rate's 95% interval 0\.0%–\d+\.\d% reaches the bar of 5\.0%/);
  });

  it('perfect agreement on 200 per stratum is trustworthy', () => {
    const r = verdictOf({ tp: 200, fp: 0, fn: 0, tn: 200 });
    expect(r.verdict).toBe('trustworthy');
    expect(r.reasons[0]).toMatch(/lies under the bar of 5\.0%/);
  });

  it('not-trustworthy when agreement is below the bar', () => {
    // agreement = (15 + 17)/40 = 0.8 < 0.85
    const r = verdictOf({ tp: 15, fp: 2, fn: 6, tn: 17 }, { maxFalsePositiveRate: 0.2 });
    expect(r.verdict).toBe('not-trustworthy');
    expect(r.reasons[0]).toMatch(/estimated agreement 80\.0% .* is below the bar of 85\.0%/);
  });

  it('the bars are configurable', () => {
    const m = { tp: 80, fp: 8, fn: 0, tn: 32 }; // FPR 0.2, agreement 0.933
    expect(verdictOf(m, { maxFalsePositiveRate: 0.6, minAgreement: 0.8 }).verdict).toBe('trustworthy');
    expect(verdictOf(m, { maxFalsePositiveRate: 0.3, minAgreement: 0.8 }).verdict).toBe('insufficient-data'); // the interval crosses 0.3
    expect(verdictOf(m, { maxFalsePositiveRate: 0.6, minAgreement: 0.95 }).verdict).toBe('not-trustworthy');
    expect(verdictOf(m, { maxFalsePositiveRate: 0.6, minAgreement: 0.8, minPerStratum: 50 }).verdict).toBe('insufficient-data');
  });

  it('all pass: insufficient data (no human-failed items, FPR undefined) — never green', () => {
    const r = verdictOf({ tp: 30, fp: 0, fn: 0, tn: 0 });
    expect(r.verdict).toBe('insufficient-data');
    expect(r.reasons).toContain('only 0 human-failed item(s); need at least 10');
    expect(r.reasons.some((s) => s.startsWith('false-positive rate is undefined: no negatives'))).toBe(true);
  });

  it('a thin stratum with perfect agreement is insufficient data, not green', () => {
    const r = verdictOf({ tp: 20, fp: 0, fn: 0, tn: 5 }, { maxFalsePositiveRate: 0.9, minAgreement: 0.1 });
    expect(r.verdict).toBe('insufficient-data');
    expect(r.reasons).toEqual(['only 5 human-failed item(s); need at least 10']);
  });

  it('a red flag wins over insufficient data, and both are reported', () => {
    const r = verdictOf({ tp: 0, fp: 4, fn: 0, tn: 26 }, {}, 2);
    expect(r.verdict).toBe('not-trustworthy');
    expect(r.reasons[0]).toMatch(/^estimated false-positive rate 13\.3% \(95% interval/);
    expect(r.reasons).toContain('only 0 human-passed item(s); need at least 10');
    expect(r.reasons.at(-1)).toBe('2 unsure item(s) excluded');
  });

  it('an empty set is insufficient data', () => {
    expect(verdictOf({ tp: 0, fp: 0, fn: 0, tn: 0 }).verdict).toBe('insufficient-data');
  });

  it('rejects nonsensical options', () => {
    const m = { tp: 15, fp: 0, fn: 0, tn: 15 };
    expect(() => verdictOf(m, { minAgreement: 1.5 })).toThrow(RangeError);
    expect(() => verdictOf(m, { maxFalsePositiveRate: Number.NaN })).toThrow(RangeError);
    expect(() => verdictOf(m, { minPerStratum: 0 })).toThrow(RangeError);
  });
});
