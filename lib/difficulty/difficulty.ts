import { chainDepth } from '../sequence/index.ts';
import type { Sequence } from '../sequence/index.ts';
import { isOpaqueStep } from './opaque.ts';
import type { Prior, PriorSource, Priors } from './priors.ts';

export interface PriorName {
  kind: 'scenario' | 'skill';
  name: string;
  given: string; // the scenario, for skills; '' for scenarios
}

export interface StepTerm {
  name: string;
  p: number;
  source: PriorSource;
  nll: number; // −ln p, this step's contribution
  model?: string; // the estimator's model, for source 'estimated'
}

export interface StepDifficulty {
  stepId: string;
  turns: number; // the step's share of L: expected agent turns for its (scenario, skill) pair
  scenario: StepTerm;
  skill: StepTerm;
}

// Off-policy difficulty D = L + Σ −ln p(σ_i) + Σ −ln p(κ_i | σ_i) (docs/method.md §2), with its
// three components kept apart because the dashboard shows them separately. The components sum
// over the described steps; an opaque step (opaque.ts) has no price, so while `undescribed` is
// not empty D is unknown and the components are only the described part's.
export interface Difficulty {
  length: number; // L, expected agent turns: the sum over steps of the turns their (scenario, skill) pair takes
  depth: number; // the longest dependency chain, in steps (shown beside L; not a term of D)
  scenarioNovelty: number; // Σ −ln p(σ_i)
  skillRarity: number; // Σ −ln p(κ_i | σ_i)
  total: number;
  model: string; // the reference it was measured under: table version, plus estimator models if any
  steps: StepDifficulty[];
  estimated: PriorName[]; // names whose probability is an LLM estimate
  smoothed: PriorName[]; // names nobody knew, charged the ε smoothing mass
  undescribed: string[]; // ids of opaque steps, not priced: D is unknown while any remains
}

/** Whether D is known: every step of the sequence is described. */
export const isKnown = (d: Pick<Difficulty, 'undescribed'>): boolean => d.undescribed.length === 0;

function term(name: string, prior: Prior): StepTerm {
  const base = { name, p: prior.p, source: prior.source, nll: -Math.log(prior.p) };
  return prior.model === undefined ? base : { ...base, model: prior.model };
}

export function difficulty(sequence: Sequence, priors: Priors): Difficulty {
  const steps: StepDifficulty[] = [];
  const estimated = new Map<string, PriorName>();
  const smoothed = new Map<string, PriorName>();
  const estimatorModels = new Set<string>();
  const undescribed: string[] = [];
  const note = (name: PriorName, prior: Prior) => {
    const key = JSON.stringify([name.kind, name.name, name.given]);
    if (prior.source === 'estimated') {
      estimated.set(key, name);
      if (prior.model) estimatorModels.add(prior.model);
    }
    if (prior.source === 'smoothed') smoothed.set(key, name);
  };
  for (const step of sequence.steps) {
    if (isOpaqueStep(step)) {
      undescribed.push(step.id);
      continue;
    }
    const scenario = priors.scenario(step.scenario);
    const skill = priors.skill(step.skill, step.scenario);
    note({ kind: 'scenario', name: step.scenario, given: '' }, scenario);
    note({ kind: 'skill', name: step.skill, given: step.scenario }, skill);
    steps.push({ stepId: step.id, turns: priors.turns(step.skill, step.scenario), scenario: term(step.scenario, scenario), skill: term(step.skill, skill) });
  }
  const length = steps.reduce((sum, s) => sum + s.turns, 0);
  const scenarioNovelty = steps.reduce((sum, s) => sum + s.scenario.nll, 0);
  const skillRarity = steps.reduce((sum, s) => sum + s.skill.nll, 0);
  return {
    length,
    depth: chainDepth(sequence),
    scenarioNovelty,
    skillRarity,
    total: length + scenarioNovelty + skillRarity,
    model: [priors.version, ...[...estimatorModels].sort()].join('+'),
    steps,
    estimated: [...estimated.values()],
    smoothed: [...smoothed.values()],
    undescribed,
  };
}
