// Population estimates from a calibration set, respecting how it was drawn. A set is sampled by
// the verifier's verdict (stratum "pass" and stratum "fail", each of a fixed size), so the sample
// over-represents whichever verdict is rare in the scope. Within a stratum the human labels are an
// unbiased sample, so precision (a within-stratum share) is fine as it is; FPR, FNR, agreement and
// κ mix the strata and must weight each by its population: stratum h counts N_h / n_h times.
//
// With W_h = N_h / N and q_h = the human-pass share among stratum h's labelled items:
//   TP = W_pass·q_pass   FP = W_pass·(1 − q_pass)   FN = W_fail·q_fail   TN = W_fail·(1 − q_fail)
// (as population shares) and every headline is a function of (W, q_pass, q_fail).
//
// Intervals: a seeded stratified Bayesian bootstrap. Each stratum's q_h is drawn from its Jeffreys
// posterior Beta(x_h + ½, n_h − x_h + ½), the statistic is recomputed with the fixed weights, and
// the 2.5th and 97.5th percentiles of DRAWS draws are the interval. We do not resample items
// (the plain bootstrap): a stratum with 0 human fails in 25 would resample to 0 every time and the
// FPR interval would collapse to [0, 0] — the same false certainty Wilson replaces Wald for. The
// Jeffreys interval has coverage close to Wilson's for a single proportion, and the draws carry it
// through the weighting and the ratios. The seed is the set's, so the page is reproducible.
//
// A plain random design uses the same estimator with the recorded population sizes (a
// post-stratified estimate); a set with no recorded population sizes (made before they were
// recorded) falls back to the sample's own shares and says so.
import { cohenKappaTable } from './metrics-kappa.ts';
import { rate, type Interval, type Rate } from './metrics-wilson.ts';
import { NO_NEGATIVES, NO_POSITIVES, type ConfusionMatrix } from './metrics.ts';
import { seededRandom } from './sample.ts';

export type SamplingDesign = 'stratified' | 'random';

export const DRAWS = 4000;

export interface StratumSummary {
  stratum: 'pass' | 'fail'; // the verifier's verdict
  population: number | null; // N_h at sampling time; null when it was not recorded
  scored: number; // n_h: labelled pass or fail (unsure excluded)
  humanPass: number;
  humanFail: number;
  weight: number | null; // N_h / n_h: how many scope trajectories one labelled item stands for
}

export type Estimate = { value: number; ci95: Interval; reason: null } | { value: null; ci95: null; reason: string };

export interface PopulationEstimates {
  design: SamplingDesign;
  populationRecorded: boolean; // false: weighted by the sample's own shares (see `notes`)
  strata: StratumSummary[];
  falsePositiveRate: Estimate;
  falseNegativeRate: Estimate;
  agreement: Estimate;
  kappa: Estimate;
  // Within a stratum the sample is unbiased: plain proportions with Wilson intervals.
  precision: Rate; // human pass among verifier passes
  negativePredictiveValue: Rate; // human fail among verifier fails
  draws: number;
  notes: string[];
}

export interface Population {
  pass: number;
  fail: number;
}

interface Shares {
  wPass: number;
  wFail: number;
}

type Statistic = (qPass: number, qFail: number) => number | null;

function statistics({ wPass, wFail }: Shares): Record<'falsePositiveRate' | 'falseNegativeRate' | 'agreement' | 'kappa', Statistic> {
  const cells = (qPass: number, qFail: number) => ({ tp: wPass * qPass, fp: wPass * (1 - qPass), fn: wFail * qFail, tn: wFail * (1 - qFail) });
  return {
    falsePositiveRate: (qp, qf) => {
      const c = cells(qp, qf);
      return c.fp + c.tn > 0 ? c.fp / (c.fp + c.tn) : null;
    },
    falseNegativeRate: (qp, qf) => {
      const c = cells(qp, qf);
      return c.fn + c.tp > 0 ? c.fn / (c.fn + c.tp) : null;
    },
    agreement: (qp, qf) => {
      const c = cells(qp, qf);
      return c.tp + c.tn;
    },
    kappa: (qp, qf) => {
      const c = cells(qp, qf);
      const observed = c.tp + c.tn;
      const chance = (c.tp + c.fp) * (c.tp + c.fn) + (c.fn + c.tn) * (c.fp + c.tn);
      return chance < 1 ? (observed - chance) / (1 - chance) : null;
    },
  };
}

// Standard normal by Box–Muller; Gamma by Marsaglia–Tsang (shape < 1 boosted by U^(1/shape)).
function normal(random: () => number): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function gamma(shape: number, random: () => number): number {
  if (shape < 1) return gamma(shape + 1, random) * Math.pow(1 - random(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal(random);
    const v = Math.pow(1 + c * x, 3);
    if (v <= 0) continue;
    const u = 1 - random();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

export function betaDraw(a: number, b: number, random: () => number): number {
  const x = gamma(a, random);
  return x / (x + gamma(b, random));
}

function percentile(sorted: readonly number[], p: number): number {
  const i = (sorted.length - 1) * p;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (i - lo);
}

function shares(confusion: ConfusionMatrix, population: Population | null): Shares | null {
  const pass = population ? population.pass : confusion.tp + confusion.fp;
  const fail = population ? population.fail : confusion.fn + confusion.tn;
  if (pass + fail === 0) return null;
  return { wPass: pass / (pass + fail), wFail: fail / (pass + fail) };
}

export function populationEstimates(
  confusion: ConfusionMatrix,
  options: { design: SamplingDesign; population: Population | null; seed: number; draws?: number },
): PopulationEstimates {
  const { tp, fp, fn, tn } = confusion;
  const draws = options.draws ?? DRAWS;
  const nPass = tp + fp;
  const nFail = fn + tn;
  const notes: string[] = [];
  if (!options.population)
    notes.push(
      'stratum population sizes were not recorded for this set: each stratum is weighted by its share of the sample, which is biased for a stratified set',
    );
  const w = shares(confusion, options.population);
  const strata: StratumSummary[] = [
    {
      stratum: 'pass',
      population: options.population?.pass ?? null,
      scored: nPass,
      humanPass: tp,
      humanFail: fp,
      weight: options.population && nPass > 0 ? options.population.pass / nPass : null,
    },
    {
      stratum: 'fail',
      population: options.population?.fail ?? null,
      scored: nFail,
      humanPass: fn,
      humanFail: tn,
      weight: options.population && nFail > 0 ? options.population.fail / nFail : null,
    },
  ];

  const undefinedAll = (reason: string): Estimate => ({ value: null, ci95: null, reason });
  const base = {
    design: options.design,
    populationRecorded: options.population !== null,
    strata,
    precision: rate(tp, nPass, 'the set holds no labelled verifier pass'),
    negativePredictiveValue: rate(tn, nFail, 'the set holds no labelled verifier fail'),
    draws,
    notes,
  };
  const missing: string[] = [];
  if (w && w.wPass > 0 && nPass === 0) missing.push(`no labelled item in the verifier-pass stratum (N = ${options.population?.pass})`);
  if (w && w.wFail > 0 && nFail === 0) missing.push(`no labelled item in the verifier-fail stratum (N = ${options.population?.fail})`);
  if (!w || missing.length > 0) {
    const reason = !w ? 'no scored items (every item is unsure or the set is empty)' : `${missing.join('; ')}: the population cannot be estimated`;
    return {
      ...base,
      falsePositiveRate: undefinedAll(reason),
      falseNegativeRate: undefinedAll(reason),
      agreement: undefinedAll(reason),
      kappa: undefinedAll(reason),
    };
  }

  // A stratum with population weight 0 contributes nothing; its q is irrelevant (use ½).
  const qPass = nPass > 0 ? tp / nPass : 0.5;
  const qFail = nFail > 0 ? fn / nFail : 0.5;
  const stats = statistics(w);
  const random = seededRandom(options.seed);
  const samples = { falsePositiveRate: [] as number[], falseNegativeRate: [] as number[], agreement: [] as number[], kappa: [] as number[] };
  for (let i = 0; i < draws; i++) {
    const dp = nPass > 0 ? betaDraw(tp + 0.5, fp + 0.5, random) : qPass;
    const df = nFail > 0 ? betaDraw(fn + 0.5, tn + 0.5, random) : qFail;
    for (const key of Object.keys(samples) as (keyof typeof samples)[]) {
      const v = stats[key](dp, df);
      if (v !== null) samples[key].push(v);
    }
  }
  const estimate = (key: keyof typeof samples, emptyReason: string): Estimate => {
    const value = stats[key](qPass, qFail);
    if (value === null) return undefinedAll(emptyReason);
    const sorted = samples[key].sort((a, b) => a - b);
    // The interval always holds the point: at 0 of n (or n of n) the Jeffreys interval's bound
    // is the point itself (Brown, Cai & DasGupta's boundary rule), not a draw just above it.
    const low = Math.min(percentile(sorted, 0.025), value);
    const high = Math.max(percentile(sorted, 0.975), value);
    return { value, ci95: { low, high }, reason: null };
  };
  return {
    ...base,
    falsePositiveRate: fp + tn === 0 ? undefinedAll(NO_NEGATIVES) : estimate('falsePositiveRate', NO_NEGATIVES),
    falseNegativeRate: fn + tp === 0 ? undefinedAll(NO_POSITIVES) : estimate('falseNegativeRate', NO_POSITIVES),
    agreement: estimate('agreement', 'no scored items'),
    kappa: estimate('kappa', kappaDegenerateReason(confusion)),
  };
}

function kappaDegenerateReason(confusion: ConfusionMatrix): string {
  const k = cohenKappaTable([
    [confusion.tp, confusion.fp],
    [confusion.fn, confusion.tn],
  ]);
  return k.reason ?? 'chance agreement is 1, so κ is undefined';
}
