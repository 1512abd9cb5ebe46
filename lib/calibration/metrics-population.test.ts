import { describe, expect, it } from 'vitest';
import { metricsFromConfusion } from './metrics.ts';
import { betaDraw, populationEstimates } from './metrics-population.ts';
import { seededRandom } from './sample.ts';
import { trustVerdict } from './metrics-verdict.ts';

// The case: the scope's verifier pass rate is 70 %, the set is 25 passes / 25 fails.
// Sample: 22 pass-pass (TP), 3 pass-fail (FP), 2 fail-pass (FN), 23 fail-fail (TN).
const seventy = { tp: 22, fp: 3, fn: 2, tn: 23 };
const seventyPopulation = { pass: 700, fail: 300 };

describe('population estimates of a stratified set', () => {
  it('weights each stratum by N_h / n_h: at a 70 % pass rate the FPR is 7/30, not 3/26', () => {
    const e = populationEstimates(seventy, { design: 'stratified', population: seventyPopulation, seed: 1 });
    // Population shares: FP = 0.7·3/25 = 0.084, TN = 0.3·23/25 = 0.276 → FPR = 0.084 / 0.36 = 7/30.
    expect(e.falsePositiveRate.value).toBeCloseTo(7 / 30, 12);
    expect(metricsFromConfusion(seventy).falsePositiveRate.value).toBeCloseTo(3 / 26, 12); // the sample tally, unweighted
    // FN = 0.3·2/25 = 0.024, TP = 0.7·22/25 = 0.616 → FNR = 0.024 / 0.64 = 0.0375.
    expect(e.falseNegativeRate.value).toBeCloseTo(0.0375, 12);
    // Agreement = TP + TN = 0.616 + 0.276 = 0.892.
    expect(e.agreement.value).toBeCloseTo(0.892, 12);
    // κ: p_e = 0.7·0.64 + 0.3·0.36 = 0.556 → (0.892 − 0.556) / 0.444 = 0.336 / 0.444.
    expect(e.kappa.value).toBeCloseTo(0.336 / 0.444, 12);
    // Precision is within one stratum: 22/25, with its Wilson interval, unweighted.
    expect(e.precision).toMatchObject({ value: 22 / 25, numerator: 22, denominator: 25 });
    expect(e.strata).toEqual([
      { stratum: 'pass', population: 700, scored: 25, humanPass: 22, humanFail: 3, weight: 28 },
      { stratum: 'fail', population: 300, scored: 25, humanPass: 2, humanFail: 23, weight: 12 },
    ]);
    for (const key of ['falsePositiveRate', 'falseNegativeRate', 'agreement', 'kappa'] as const) {
      const est = e[key];
      expect(est.ci95!.low).toBeLessThan(est.value!);
      expect(est.ci95!.high).toBeGreaterThan(est.value!);
    }
    // The interval is wide on 3 human fails of 26 weighted up: it reaches well past the point.
    expect(e.falsePositiveRate.ci95!.low).toBeGreaterThan(0.05);
    expect(e.falsePositiveRate.ci95!.high).toBeGreaterThan(0.35);
  });

  it('the banner on the 70 % case is not green: the weighted FPR is far above the bar', () => {
    const e = populationEstimates(seventy, { design: 'stratified', population: seventyPopulation, seed: 1 });
    const verdict = trustVerdict(metricsFromConfusion(seventy), e);
    expect(verdict.verdict).toBe('not-trustworthy');
    expect(verdict.reasons[0]).toMatch(/estimated false-positive rate 23\.3% .* above the bar of 5\.0%/);
  });

  it('is reproducible for a seed and moves with it only in the interval', () => {
    const a = populationEstimates(seventy, { design: 'stratified', population: seventyPopulation, seed: 7 });
    expect(populationEstimates(seventy, { design: 'stratified', population: seventyPopulation, seed: 7 })).toEqual(a);
    const b = populationEstimates(seventy, { design: 'stratified', population: seventyPopulation, seed: 8 });
    expect(b.falsePositiveRate.value).toBe(a.falsePositiveRate.value);
    expect(Math.abs(b.falsePositiveRate.ci95!.high - a.falsePositiveRate.ci95!.high)).toBeLessThan(0.02);
  });

  it('a degenerate stratum (no human fails among verifier passes): FPR 0 with an upper bound above 0', () => {
    const clean = { tp: 25, fp: 0, fn: 5, tn: 20 };
    const e = populationEstimates(clean, { design: 'stratified', population: { pass: 900, fail: 100 }, seed: 3 });
    expect(e.falsePositiveRate.value).toBe(0);
    expect(e.falsePositiveRate.ci95!.low).toBe(0);
    // Jeffreys draws keep q_pass below 1: with 0 of 25 failed and 90 % of the scope weighted up,
    // the interval must admit real false positives rather than collapse to [0, 0].
    expect(e.falsePositiveRate.ci95!.high).toBeGreaterThan(0.1);
    // FN = 0.1·5/25 = 0.02, TP = 0.9 → FNR = 0.02 / 0.92; agreement = 0.9 + 0.1·20/25 = 0.98.
    expect(e.falseNegativeRate.value).toBeCloseTo(0.02 / 0.92, 12);
    expect(e.agreement.value).toBeCloseTo(0.98, 12);
    expect(e.precision.value).toBe(1);
    const verdict = trustVerdict(metricsFromConfusion(clean), e);
    expect(verdict.verdict).toBe('insufficient-data');
    expect(verdict.reasons.join(' ')).toMatch(/false-positive rate's 95% interval 0\.0%–.* reaches the bar/);
  });

  it('no human fails at all: FPR undefined with the reason, never 0', () => {
    const e = populationEstimates({ tp: 25, fp: 0, fn: 25, tn: 0 }, { design: 'stratified', population: { pass: 50, fail: 50 }, seed: 1 });
    expect(e.falsePositiveRate).toEqual({ value: null, ci95: null, reason: expect.stringContaining('no negatives') });
  });

  it('a populated stratum with no labelled item cannot be estimated', () => {
    const e = populationEstimates({ tp: 10, fp: 2, fn: 0, tn: 0 }, { design: 'stratified', population: { pass: 80, fail: 20 }, seed: 1 });
    expect(e.agreement.reason).toMatch(/no labelled item in the verifier-fail stratum \(N = 20\)/);
    expect(e.falsePositiveRate.value).toBeNull();
  });

  it('a random design with the population split of its sample gives the unweighted numbers', () => {
    const e = populationEstimates(seventy, { design: 'random', population: { pass: 25, fail: 25 }, seed: 1 });
    expect(e.falsePositiveRate.value).toBeCloseTo(3 / 26, 12);
    expect(e.agreement.value).toBeCloseTo(45 / 50, 12);
  });

  it('without recorded population sizes it falls back to the sample shares and says so', () => {
    const e = populationEstimates(seventy, { design: 'stratified', population: null, seed: 1 });
    expect(e.populationRecorded).toBe(false);
    expect(e.falsePositiveRate.value).toBeCloseTo(3 / 26, 12);
    expect(e.notes[0]).toMatch(/not recorded/);
  });

  it('green only when both intervals clear their bars', () => {
    const strong = { tp: 200, fp: 0, fn: 4, tn: 200 };
    const e = populationEstimates(strong, { design: 'stratified', population: { pass: 500, fail: 500 }, seed: 2 });
    expect(e.falsePositiveRate.ci95!.high).toBeLessThan(0.05);
    expect(trustVerdict(metricsFromConfusion(strong), e).verdict).toBe('trustworthy');
    expect(trustVerdict(metricsFromConfusion(strong), e, { maxFalsePositiveRate: e.falsePositiveRate.ci95!.high / 2 }).verdict).toBe('insufficient-data');
  });
});

describe('the Beta sampler behind the intervals', () => {
  it('has the Beta mean and variance', () => {
    const random = seededRandom(11);
    const [a, b] = [3.5, 22.5];
    const draws = Array.from({ length: 20_000 }, () => betaDraw(a, b, random));
    const mean = draws.reduce((s, x) => s + x, 0) / draws.length;
    const variance = draws.reduce((s, x) => s + (x - mean) ** 2, 0) / draws.length;
    expect(mean).toBeCloseTo(a / (a + b), 2);
    expect(variance).toBeCloseTo((a * b) / ((a + b) ** 2 * (a + b + 1)), 3);
    expect(Math.min(...Array.from({ length: 2000 }, () => betaDraw(0.5, 25.5, random)))).toBeGreaterThan(0);
  });
});
