// The metrics page's numbers for one set: the verifier against the final human labels (unsure
// excluded and counted) as sample tallies and as population estimates weighted by the set's
// design, the verdict banner (on the estimates' intervals), agreement between annotators, and —
// after a re-score — the same against the newer verifier, for the side-by-side comparison.
import type { Db } from '../db/index.ts';
import { CalibrationNotFoundError } from './errors.ts';
import { cohenKappaAnnotators, fleissKappa, type HumanLabel, type Kappa } from './metrics-kappa.ts';
import { calibrationMetrics, type CalibrationMetrics } from './metrics.ts';
import { populationEstimates, type PopulationEstimates, type SamplingDesign } from './metrics-population.ts';
import { trustVerdict, type TrustOptions, type TrustResult } from './metrics-verdict.ts';
import { annotatorIdsOf } from './sets.ts';

export interface VerifierScore {
  verifierVersion: string;
  /** Items with a final label that this verifier scored. */
  items: number;
  /** Re-scores that failed to produce a verdict (build or sandbox errors). */
  errors: number;
  metrics: CalibrationMetrics; // the sample's tallies: what an annotator can count by hand
  population: PopulationEstimates; // the headline: each stratum weighted by N_h / n_h
  verdict: TrustResult;
}

export interface InterAnnotator {
  method: 'cohen' | 'fleiss';
  kappa: Kappa;
}

export interface SetMetrics {
  setId: string;
  design: SamplingDesign;
  items: number;
  finalLabels: number;
  awaitingLabels: number;
  awaitingAdjudication: number;
  recorded: VerifierScore;
  rescored: VerifierScore | null;
  /** Items whose verdict differs between the recorded and the re-scored verifier. */
  flipped: number;
  interAnnotator: InterAnnotator | null;
}

export async function setMetrics(db: Db, setId: string, options: TrustOptions = {}): Promise<SetMetrics> {
  const set = await db.calibrationSet.findUnique({
    where: { id: setId },
    select: {
      overlap: true,
      seed: true,
      design: true,
      populationPass: true,
      populationFail: true,
      annotatorIds: true,
      verifierVersion: true,
      items: {
        select: {
          id: true,
          verifierPassed: true,
          finalLabel: true,
          labels: { orderBy: { createdAt: 'asc' }, select: { annotatorId: true, answer: true } },
          rescores: { orderBy: { createdAt: 'desc' }, select: { verifierVersion: true, passed: true, createdAt: true } },
        },
      },
    },
  });
  if (!set) throw new CalibrationNotFoundError(`no calibration set has the id ${setId}`);
  const labelled = set.items.filter((i) => i.finalLabel !== null);
  const design = set.design as SamplingDesign;
  // Strata are the recorded verifier's verdicts; a re-score is weighted by the same population
  // sizes, an approximation the page states (the newer verifier's split of the scope is unknown).
  const recordedPopulation = set.populationPass !== null && set.populationFail !== null ? { pass: set.populationPass, fail: set.populationFail } : null;
  const score = (verifierVersion: string, verdicts: { passed: boolean | null; human: HumanLabel }[]): VerifierScore => {
    const scored = verdicts.filter((v): v is { passed: boolean; human: HumanLabel } => v.passed !== null);
    const metrics = calibrationMetrics(scored.map((v) => ({ verifier: v.passed ? 'pass' : 'fail', human: v.human })));
    const population = populationEstimates(metrics.confusion, { design, population: recordedPopulation, seed: set.seed });
    return {
      verifierVersion,
      items: scored.length,
      errors: verdicts.length - scored.length,
      metrics,
      population,
      verdict: trustVerdict(metrics, population, options),
    };
  };
  const recorded = score(
    set.verifierVersion,
    labelled.map((i) => ({ passed: i.verifierPassed, human: i.finalLabel as HumanLabel })),
  );

  // The newest re-score that ran under a verifier other than the recorded one.
  const latest = set.items
    .flatMap((i) => i.rescores)
    .filter((r) => r.verifierVersion !== set.verifierVersion)
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]?.verifierVersion;
  let rescored: VerifierScore | null = null;
  let flipped = 0;
  if (latest) {
    const pairs = labelled.flatMap((i) => {
      const r = i.rescores.find((x) => x.verifierVersion === latest);
      return r ? [{ passed: r.passed, human: i.finalLabel as HumanLabel, before: i.verifierPassed }] : [];
    });
    rescored = score(latest, pairs);
    rescored.population.notes.push(
      "the set's strata are the recorded verifier's verdicts: the newer verifier's estimates reuse their population sizes, an approximation where verdicts flipped",
    );
    flipped = pairs.filter((p) => p.passed !== null && p.passed !== p.before).length;
  }

  return {
    setId,
    design,
    items: set.items.length,
    finalLabels: labelled.length,
    awaitingLabels: set.items.filter((i) => i.labels.length < set.overlap).length,
    awaitingAdjudication: set.items.filter((i) => i.labels.length >= set.overlap && i.finalLabel === null).length,
    recorded,
    rescored,
    flipped,
    interAnnotator: interAnnotator(set.overlap, annotatorIdsOf(set.annotatorIds), set.items),
  };
}

/**
 * Cohen's κ when two annotators share the items, Fleiss' κ when more do (over the items that have
 * all `overlap` labels, taking the first `overlap`); null without overlap.
 */
export function interAnnotator(
  overlap: number,
  annotatorIds: readonly string[],
  items: readonly { labels: readonly { annotatorId: string; answer: string }[] }[],
): InterAnnotator | null {
  if (overlap < 2) return null;
  if (annotatorIds.length === 2) {
    const [a, b] = annotatorIds.map(
      (id) => new Map(items.flatMap((item, n) => item.labels.filter((l) => l.annotatorId === id).map((l) => [String(n), l.answer as HumanLabel] as const))),
    );
    return { method: 'cohen', kappa: cohenKappaAnnotators(a!, b!) };
  }
  const full = items.filter((i) => i.labels.length >= overlap).map((i) => i.labels.slice(0, overlap).map((l) => l.answer as HumanLabel));
  return { method: 'fleiss', kappa: fleissKappa(full) };
}
