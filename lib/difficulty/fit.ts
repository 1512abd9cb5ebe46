// Reference priors fitted from a corpus of environments: the described sequences of a
// lab's own seed pool give counts of scenarios, of skills per scenario and of (scenario, skill)
// pairs, and where rollouts exist, the turns agents actually took. Each estimate is smoothed
// towards a base reference (additive smoothing with the base as the prior mean), so a name the
// corpus never shows keeps the base's probability scaled down, and a name seen once does not take
// the whole mass.
//   p(σ)     = (c(σ) + α · p₀(σ)) / (N + α)                  over base ∪ corpus scenarios
//   p(κ | σ) = (c(σ, κ) + α · p₀(κ | σ)) / (c(σ) + α)        p₀(κ | σ) backs off to p₀(κ)
//   turns(σ, κ) = t₀(σ, κ) · (Σ rₑ + γ) / (nₑ + γ)           rₑ = observed mean turns / t₀ of env e
// Each distribution is renormalised to 1 − ε (the base's ε), so unknown names still cost more.
// Counts are taken on the plain names (a domain, a base skill): layout, noise and delivery are
// attributes of a step (reference-priors.ts), so a composed name keeps the base's attribute factor
// over its plain name's fitted probability, and the plain names are what sums to 1 − ε.
import { createHash } from 'node:crypto';
import type { Sequence } from '../sequence/index.ts';
import { tablePriors } from './priors.ts';
import { pairKey, type ReferenceTable } from './reference-priors.ts';
import { scenarioParts, skillParts } from './scenario-names.ts';

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

const plainScenario = (name: string): string => scenarioParts(name)?.domain ?? name;
const plainSkill = (name: string): string => skillParts(name)?.base ?? name;

// The base's factor for a composed name over its plain name (1 when the base lacks either).
function attributeFactor(table: ReadonlyMap<string, number> | undefined, name: string, plain: string): number {
  const composed = table?.get(name);
  const bare = table?.get(plain);
  return composed === undefined || bare === undefined ? 1 : composed / bare;
}

export function fitPriors(corpus: CorpusEnvironment[], base: ReferenceTable, options: FitOptions = DEFAULT_FIT_OPTIONS): FittedPriors {
  const { strength: a, turnsStrength: g } = options;
  if (!(a > 0) || !(g > 0)) throw new RangeError(`smoothing strengths must be positive, got α=${a}, γ=${g}`);
  const prior = tablePriors(base);
  const steps = corpus.flatMap((e) => e.sequence.steps);
  if (steps.length === 0) throw new Error('the corpus holds no described step: nothing to fit');

  const domainCounts = new Map<string, number>();
  const pairCounts = new Map<string, Map<string, number>>();
  const skillCounts = new Map<string, number>();
  for (const s of steps) {
    const domain = plainScenario(s.scenario);
    count(domainCounts, domain);
    count(skillCounts, plainSkill(s.skill));
    if (!pairCounts.has(domain)) pairCounts.set(domain, new Map());
    count(pairCounts.get(domain)!, plainSkill(s.skill));
  }
  const n = steps.length;
  const domains = new Set([...base.scenarios.keys(), ...steps.map((s) => s.scenario)].map(plainScenario));
  const scenarioNames = new Set([...base.scenarios.keys(), ...steps.map((s) => s.scenario), ...domains]);
  const baseSkills = new Set([...base.skillMarginal.keys(), ...steps.map((s) => s.skill)].map(plainSkill));
  const skillNames = new Set([...base.skillMarginal.keys(), ...steps.map((s) => s.skill), ...baseSkills]);
  // A plain distribution spread over the composed names: each keeps the base's attribute factor.
  const spread = (plain: Map<string, number>, names: Set<string>, toPlain: (name: string) => string, baseTable: ReadonlyMap<string, number> | undefined) =>
    new Map([...names].map((name) => [name, plain.get(toPlain(name))! * attributeFactor(baseTable, name, toPlain(name))]));

  const scenarios = spread(
    normalise(new Map([...domains].map((d) => [d, ((domainCounts.get(d) ?? 0) + a * prior.scenario(d).p) / (n + a)])), 1 - base.scenarioEpsilon),
    scenarioNames,
    plainScenario,
    base.scenarios,
  );
  const skillMarginal = spread(
    normalise(
      new Map([...baseSkills].map((κ) => [κ, ((skillCounts.get(κ) ?? 0) + a * (base.skillMarginal.get(κ) ?? base.skillEpsilon)) / (n + a)])),
      1 - base.skillEpsilon,
    ),
    skillNames,
    plainSkill,
    base.skillMarginal,
  );
  const skillsGiven = new Map<string, Map<string, number>>();
  for (const σ of scenarioNames) {
    const domain = plainScenario(σ);
    const seen = pairCounts.get(domain);
    const inDomain = domainCounts.get(domain) ?? 0;
    // A domain the corpus never shows keeps the base's conditional as it was.
    if (!seen && base.skillsGiven.has(σ)) {
      skillsGiven.set(σ, new Map(base.skillsGiven.get(σ)!));
      continue;
    }
    const plain = normalise(
      new Map([...baseSkills].map((κ) => [κ, ((seen?.get(κ) ?? 0) + a * prior.skill(κ, domain).p) / (inDomain + a)])),
      1 - base.skillEpsilon,
    );
    skillsGiven.set(σ, spread(plain, skillNames, plainSkill, base.skillsGiven.get(domain) ?? base.skillMarginal));
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
      scenarios: domainCounts.size,
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
