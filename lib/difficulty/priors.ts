import { pairKey, type ReferenceTable } from './reference-priors.ts';

// Where a probability came from: the reference table, the table's skill marginal (a known skill
// in a scenario the table does not know), a cached LLM estimate, or the ε smoothing mass.
export type PriorSource = 'table' | 'backoff' | 'estimated' | 'smoothed';

export interface Prior {
  p: number;
  source: PriorSource;
  model?: string; // the estimator's model, for source 'estimated'
}

// The reference distribution difficulty is measured under.
export interface Priors {
  readonly version: string; // of the reference table
  scenario(name: string): Prior; // p(σ)
  skill(name: string, given: string): Prior; // p(κ | σ)
  turns(skill: string, scenario: string): number; // expected agent turns of one step exercising the skill in the scenario
}

/** The reference table alone, with the smoothing documented in reference-priors.ts. */
export function tablePriors(table: ReferenceTable): Priors {
  return {
    version: table.version,
    scenario(name) {
      const p = table.scenarios.get(name);
      return p === undefined ? { p: table.scenarioEpsilon, source: 'smoothed' } : { p, source: 'table' };
    },
    skill(name, given) {
      const inScenario = table.skillsGiven.get(given)?.get(name);
      if (inScenario !== undefined) return { p: inScenario, source: 'table' };
      const marginal = table.skillMarginal.get(name);
      return marginal === undefined ? { p: table.skillEpsilon, source: 'smoothed' } : { p: marginal, source: 'backoff' };
    },
    turns: (skill, scenario) =>
      table.pairTurns.get(pairKey(scenario, skill)) ?? (table.turns.get(skill) ?? table.unknownSkillTurns) + (table.scenarioTurns.get(scenario) ?? 0),
  };
}

/** Whether the table has its own number for this name (no estimate needed). */
export function tableKnows(table: ReferenceTable, kind: 'scenario' | 'skill', name: string): boolean {
  return kind === 'scenario' ? table.scenarios.has(name) : table.skillMarginal.has(name);
}
