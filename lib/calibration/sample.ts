// Sampling a calibration set. The default design is stratified: the verifier's verdict is the
// stratum, so that both passes and fails are represented whatever the scope's pass rate is (a
// 90%-pass scope sampled uniformly would hold ~5 fails in 50 and say almost nothing about the
// false-positive rate). A plain random design draws uniformly from the scope. Either way the
// strata's population sizes are recorded, so the metrics can weight each stratum by N_h / n_h.
import { CalibrationInputError } from './errors.ts';

export interface SampleCandidate {
  rolloutId: string;
  passed: boolean;
}

export interface SampleOptions {
  size: number;
  /** Share of the set drawn from verifier passes; the rest from verifier fails. */
  passShare: number;
  seed: number;
}

export interface SampledItem extends SampleCandidate {
  position: number; // 1-based order in which annotators meet the items
}

/** The scope's verifier passes and fails when the set is drawn: N_pass and N_fail. */
export function stratumPopulation(candidates: readonly SampleCandidate[]): { pass: number; fail: number } {
  const pass = candidates.filter((c) => c.passed).length;
  return { pass, fail: candidates.length - pass };
}

/** How many items each stratum contributes: passes = round(size · passShare). */
export function stratumSizes(options: Pick<SampleOptions, 'size' | 'passShare'>): { pass: number; fail: number } {
  const pass = Math.round(options.size * options.passShare);
  return { pass, fail: options.size - pass };
}

/** The largest set size whose strata this population can fill at this pass share (0 if none). */
export function largestStratifiedSize(population: { pass: number; fail: number }, passShare: number): number {
  for (let size = population.pass + population.fail; size > 0; size--) {
    const want = stratumSizes({ size, passShare });
    if (want.pass <= population.pass && want.fail <= population.fail) return size;
  }
  return 0;
}

/** mulberry32: a small seeded PRNG, so the same seed over the same scope draws the same set. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Draws `pass` verifier-passed and `fail` verifier-failed candidates without replacement, then
 * shuffles the two strata together: annotators label blind, so the order they meet items in
 * must not reveal the stratum (all passes first would). Candidates are sorted by id first so the
 * draw depends only on the seed and the scope, not on the order a query returned rows in.
 */
export function stratifiedSample(candidates: readonly SampleCandidate[], options: SampleOptions): SampledItem[] {
  const { size, passShare, seed } = options;
  if (!Number.isInteger(size) || size < 1) throw new CalibrationInputError(`size must be a positive integer, got ${size}`);
  if (!(passShare >= 0 && passShare <= 1)) throw new CalibrationInputError(`pass share must be between 0 and 1, got ${passShare}`);
  if (!Number.isInteger(seed)) throw new CalibrationInputError(`seed must be an integer, got ${seed}`);
  const want = stratumSizes(options);
  const sorted = [...candidates].sort((a, b) => (a.rolloutId < b.rolloutId ? -1 : a.rolloutId > b.rolloutId ? 1 : 0));
  const passes = sorted.filter((c) => c.passed);
  const fails = sorted.filter((c) => !c.passed);
  const short: string[] = [];
  if (passes.length < want.pass) short.push(`need ${want.pass} verifier-passed trajectories, the scope has ${passes.length}`);
  if (fails.length < want.fail) short.push(`need ${want.fail} verifier-failed trajectories, the scope has ${fails.length}`);
  if (short.length > 0) {
    const largest = largestStratifiedSize({ pass: passes.length, fail: fails.length }, passShare);
    const offer = largest > 0 ? `the largest set this scope allows at pass share ${passShare} is ${largest}` : 'this scope allows no set at this pass share';
    throw new CalibrationInputError(`not enough trajectories to sample ${size}: ${short.join('; ')}. ${offer[0]!.toUpperCase()}${offer.slice(1)}.`);
  }
  const random = seededRandom(seed);
  const drawn = [...shuffle(passes, random).slice(0, want.pass), ...shuffle(fails, random).slice(0, want.fail)];
  return shuffle(drawn, random).map((c, i) => ({ ...c, position: i + 1 }));
}

/** A uniform draw of `size` candidates without replacement (the plain random design). */
export function randomSample(candidates: readonly SampleCandidate[], options: Pick<SampleOptions, 'size' | 'seed'>): SampledItem[] {
  const { size, seed } = options;
  if (!Number.isInteger(size) || size < 1) throw new CalibrationInputError(`size must be a positive integer, got ${size}`);
  if (!Number.isInteger(seed)) throw new CalibrationInputError(`seed must be an integer, got ${seed}`);
  if (candidates.length < size)
    throw new CalibrationInputError(
      `not enough trajectories to sample ${size}: the scope has ${candidates.length}. The largest set this scope allows is ${candidates.length}.`,
    );
  const sorted = [...candidates].sort((a, b) => (a.rolloutId < b.rolloutId ? -1 : a.rolloutId > b.rolloutId ? 1 : 0));
  return shuffle(sorted, seededRandom(seed))
    .slice(0, size)
    .map((c, i) => ({ ...c, position: i + 1 }));
}
