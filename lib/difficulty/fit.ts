// Reference priors fitted from a corpus of environments (issue 26): the described sequences of a
// lab's own seed pool give counts of scenarios, of skills per scenario and of (scenario, skill)
// pairs, and where rollouts exist, the turns agents actually took. Each estimate is smoothed
// towards a base reference (additive smoothing with the base as the prior mean), so a name the
// corpus never shows keeps the base's probability scaled down, and a name seen once does not take
// the whole mass.
//   p(σ)     = (c(σ) + α · p₀(σ)) / (N + α)                  over base ∪ corpus scenarios
//   p(κ | σ) = (c(σ, κ) + α · p₀(κ | σ)) / (c(σ) + α)        p₀(κ | σ) backs off to p₀(κ)
//   turns(σ, κ) = t₀(σ, κ) · (Σ rₑ + γ) / (nₑ + γ)           rₑ = observed mean turns / t₀ of env e
// Each distribution is renormalised to 1 − ε (the base's ε), so unknown names still cost more.
import { createHash } from 'node:crypto';
import type { Sequence } from '../sequence/index.ts';
import { tablePriors } from './priors.ts';
import { pairKey, type ReferenceTable } from './reference-priors.ts';

export interface CorpusEnvironment {
  name: string;
  versionId: string; // content hash of the environment the sequence was read from
  sequence: Sequence;
  observedTurns?: { mean: number; rollouts: number; policy: string }; // mean agent turns per rollout
}

export interface FitOptions {
  strength: number; // α: pseudo-observations of the base reference per distribution
  turnsStrength: number; // γ: pseudo-environments at the base's turns per pair
}

export const DEFAULT_FIT_OPTIONS: FitOptions = { strength: 10, turnsStrength: 5 };

export interface FitProvenance {
  base: string;
  method: string;
  options: FitOptions;
  corpus: Array<{ name: string; versionId: string; steps: number; observedTurns: CorpusEnvironment['observedTurns'] | null }>;
  counts: { environments: number; steps: number; scenarios: number; pairs: number; withTurns: number };
}

export interface FittedPriors {
  table: ReferenceTable;
  provenance: FitProvenance;
}

function normalise(raw: Map<string, number>, mass: number): Map<string, number> {
  const total = [...raw.values()].reduce((a, b) => a + b, 0);
  return new Map([...raw].map(([name, w]) => [name, (mass * w) / total]));
}

function count<K>(map: Map<K, number>, key: K): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export function fitPriors(corpus: CorpusEnvironment[], base: ReferenceTable, options: FitOptions = DEFAULT_FIT_OPTIONS): FittedPriors {
  const { strength: a, turnsStrength: g } = options;
  if (!(a > 0) || !(g > 0)) throw new RangeError(`smoothing strengths must be positive, got α=${a}, γ=${g}`);
  const prior = tablePriors(base);
  const steps = corpus.flatMap((e) => e.sequence.steps);
  if (steps.length === 0) throw new Error('the corpus holds no described step: nothing to fit');

  const scenarioCounts = new Map<string, number>();
  const pairCounts = new Map<string, Map<string, number>>();
  const skillCounts = new Map<string, number>();
  for (const s of steps) {
    count(scenarioCounts, s.scenario);
    count(skillCounts, s.skill);
    if (!pairCounts.has(s.scenario)) pairCounts.set(s.scenario, new Map());
    count(pairCounts.get(s.scenario)!, s.skill);
  }
  const n = steps.length;
  const scenarioNames = new Set([...base.scenarios.keys(), ...scenarioCounts.keys()]);
  const skillNames = new Set([...base.skillMarginal.keys(), ...skillCounts.keys()]);

  const scenarios = normalise(
    new Map([...scenarioNames].map((σ) => [σ, ((scenarioCounts.get(σ) ?? 0) + a * prior.scenario(σ).p) / (n + a)])),
    1 - base.scenarioEpsilon,
  );
  const skillMarginal = normalise(
    new Map([...skillNames].map((κ) => [κ, ((skillCounts.get(κ) ?? 0) + a * (base.skillMarginal.get(κ) ?? base.skillEpsilon)) / (n + a)])),
    1 - base.skillEpsilon,
  );
  const skillsGiven = new Map<string, Map<string, number>>();
  for (const σ of scenarioNames) {
    const seen = pairCounts.get(σ);
    const inσ = scenarioCounts.get(σ) ?? 0;
    // A scenario the corpus never shows keeps the base's conditional as it was.
    if (!seen && base.skillsGiven.has(σ)) {
      skillsGiven.set(σ, new Map(base.skillsGiven.get(σ)!));
      continue;
    }
    skillsGiven.set(σ, normalise(new Map([...skillNames].map((κ) => [κ, ((seen?.get(κ) ?? 0) + a * prior.skill(κ, σ).p) / (inσ + a)])), 1 - base.skillEpsilon));
  }

  // Turns: each environment with observed turns says how far off the base's expected turns were;
  // every pair it holds shares that ratio, shrunk towards 1 by γ pseudo-environments.
  const ratios = new Map<string, number[]>();
  for (const e of corpus) {
    if (!e.observedTurns || e.sequence.steps.length === 0) continue;
    const expected = e.sequence.steps.reduce((sum, s) => sum + prior.turns(s.skill, s.scenario), 0);
    for (const s of e.sequence.steps)
      ratios.set(pairKey(s.scenario, s.skill), [...(ratios.get(pairKey(s.scenario, s.skill)) ?? []), e.observedTurns.mean / expected]);
  }
  const pairTurns = new Map<string, number>();
  for (const s of steps) {
    const key = pairKey(s.scenario, s.skill);
    const r = ratios.get(key) ?? [];
    pairTurns.set(key, (prior.turns(s.skill, s.scenario) * (r.reduce((x, y) => x + y, 0) + g)) / (r.length + g));
  }

  const provenance: FitProvenance = {
    base: base.version,
    method: 'additive smoothing towards the base reference (α pseudo-observations), turns shrunk towards the base by γ pseudo-environments',
    options,
    corpus: corpus.map((e) => ({ name: e.name, versionId: e.versionId, steps: e.sequence.steps.length, observedTurns: e.observedTurns ?? null })),
    counts: {
      environments: corpus.length,
      steps: n,
      scenarios: scenarioCounts.size,
      pairs: pairTurns.size,
      withTurns: corpus.filter((e) => e.observedTurns).length,
    },
  };
  // The version names what it was fitted from, so the same corpus and options give the same version.
  const digest = createHash('sha256')
    .update(JSON.stringify([base.version, options, provenance.corpus, corpus.map((e) => e.sequence)]))
    .digest('hex')
    .slice(0, 12);
  const table: ReferenceTable = {
    version: `fit-${digest}`,
    scenarioEpsilon: base.scenarioEpsilon,
    skillEpsilon: base.skillEpsilon,
    scenarios,
    skillsGiven,
    skillMarginal,
    turns: base.turns,
    scenarioTurns: base.scenarioTurns,
    pairTurns,
    unknownSkillTurns: base.unknownSkillTurns,
    provenance: `fitted from ${corpus.length} environments (${n} steps) over ${base.version}`,
  };
  return { table, provenance };
}
