// Name lookups over the two catalogues.
import type { Scenario } from './scenario.ts';
import { SCENARIOS } from './scenarios/index.ts';
import type { Skill } from './skill.ts';
import { SKILLS } from './skills/index.ts';

export const SCENARIO_NAMES: readonly string[] = SCENARIOS.map((s) => s.name);
export const SKILL_NAMES: readonly string[] = SKILLS.map((s) => s.name);

export function scenarioNamed(name: string): Scenario {
  const found = SCENARIOS.find((s) => s.name === name);
  if (!found) throw new Error(`unknown scenario "${name}": the procedural catalogue has ${SCENARIO_NAMES.join(', ')}`);
  return found;
}

export function skillNamed(name: string): Skill {
  const found = SKILLS.find((s) => s.name === name);
  if (!found) throw new Error(`unknown skill "${name}": the procedural catalogue has ${SKILL_NAMES.join(', ')}`);
  return found;
}
