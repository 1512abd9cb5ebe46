// Name lookups over the two catalogues. The scenario catalogue is composed: every domain in
// every layout with every kind of noise (compose.ts), named as the reference priors name them.
import { composeScenario, composeSkill, DELIVERIES, LAYOUTS, NOISES, scenarioParts, skillParts, type Delivery } from '../../difficulty/index.ts';
import type { Sequence } from '../../sequence/index.ts';
import { composedScenario, type ComposedScenario } from './compose.ts';
import { SCENARIOS } from './scenarios/index.ts';
import type { Skill } from './skill.ts';
import { SKILLS } from './skills/index.ts';

export const DOMAIN_NAMES: readonly string[] = SCENARIOS.map((s) => s.name);
export const SCENARIO_NAMES: readonly string[] = DOMAIN_NAMES.flatMap((domain) =>
  LAYOUTS.flatMap((layout) => NOISES.map((noise) => composeScenario({ domain, layout, noise }))),
);
export const BASE_SKILL_NAMES: readonly string[] = SKILLS.map((s) => s.name);
// Skills a step can have only after a step answering an integer, and the skills answering one.
export const UPSTREAM_SKILL_NAMES: readonly string[] = SKILLS.filter((s) => s.computesWithUpstream).map((s) => s.name);
export const INTEGER_ANSWER_SKILL_NAMES: readonly string[] = SKILLS.filter((s) => s.answersInteger).map((s) => s.name);
export const SKILL_NAMES: readonly string[] = BASE_SKILL_NAMES.flatMap((base) => DELIVERIES.map((delivery) => composeSkill({ base, delivery })));

export function scenarioNamed(name: string): ComposedScenario {
  const parts = scenarioParts(name);
  const domain = parts && SCENARIOS.find((s) => s.name === parts.domain);
  if (!parts || !domain) {
    throw new Error(
      `unknown scenario "${name}": the procedural catalogue has the domains ${DOMAIN_NAMES.join(', ')}, each as domain[+csv|+tsv|+jsonl][+comments|+crlf|+banner|+bom]`,
    );
  }
  return composedScenario(domain, parts.layout, parts.noise);
}

export interface NamedSkill {
  skill: Skill;
  delivery: Delivery;
}

export function skillNamed(name: string): NamedSkill {
  const parts = skillParts(name);
  const skill = parts && SKILLS.find((s) => s.name === parts.base);
  if (!parts || !skill) throw new Error(`unknown skill "${name}": the procedural catalogue has ${BASE_SKILL_NAMES.join(', ')}, each as skill[+gz|+b64]`);
  return { skill, delivery: parts.delivery };
}

/**
 * Why this scenario's layout or noise would not show in what the skill builds, or null when it
 * does: a column export (jq, cut, SQL) is made from the records, not from the scenario's file, so
 * a layout never reaches it, and noise reaches only the exports the agent reads as text files.
 */
export function misfit(scenario: string, skill: string): string | null {
  const parts = scenarioParts(scenario);
  const named = skillParts(skill);
  const s = named && SKILLS.find((k) => k.name === named.base);
  if (!parts || !named || !s) return null;
  if (named.delivery !== 'plain' && s.buildsData)
    return `${named.base} builds its data at image-build time, so it cannot deliver its files ${named.delivery === 'gz' ? 'gzip-compressed' : 'base64-encoded'}`;
  if (!s.exportsColumns) return null;
  if (parts.layout !== 'native') return `${named.base} delivers its own column export, so the ${parts.layout} layout of ${scenario} would not reach its data`;
  if (parts.noise !== 'clean' && s.buildsData)
    return `${named.base} builds its data at image-build time, so the ${parts.noise} noise of ${scenario} would not reach what the agent reads`;
  return null;
}

// Two selector sets a step can draw: a skill whose solution is the same under both, in every
// domain, reads no selector and no scenario.
const PROBE_PARAMS = [
  { category: 'first-category', key: 'first-key', batch: 2, upstreamFile: '/app/out/s1.txt' },
  { category: 'second-category', key: 'second-key', batch: 3, upstreamFile: '/app/out/s2.txt' },
];
let blindSkills: Set<string> | undefined;

/**
 * Whether the skill's question changes with its step's scenario: false for a skill whose solution
 * is the same for every domain and every selector (a line count per file, a checksum, a diff of
 * two snapshots). A scenario edit of such a step hands the agent new data and the same question:
 * the parent's solution still answers it, which the counter-check refuses.
 */
export function asksOfItsScenario(skillName: string): boolean {
  blindSkills ??= new Set(SKILLS.filter((k) => new Set(SCENARIOS.flatMap((s) => PROBE_PARAMS.map((p) => k.solve(s, p)))).size === 1).map((k) => k.name));
  return !blindSkills.has(skillNamed(skillName).skill.name);
}

const baseSkill = (name: string): Skill | undefined => {
  const parts = skillParts(name);
  return parts ? SKILLS.find((k) => k.name === parts.base) : undefined;
};

/**
 * Why a step of the sequence cannot compute with its upstream answer as its skill asks, or null
 * when every such step can: it must depend on exactly one step, a procedural one whose skill
 * answers an integer in every domain (a count, a number of seconds), since that number is its
 * threshold. Scenarios never matter here; a skill edit of either step can break the pairing.
 */
export function chainMisfit(sequence: Sequence): string | null {
  for (const step of sequence.steps) {
    if (!baseSkill(step.skill)?.computesWithUpstream) continue;
    if (step.dependsOn.length !== 1)
      return `step ${step.id}: ${step.skill} computes with the answer of exactly one earlier step, and it depends on ${step.dependsOn.length === 0 ? 'none' : step.dependsOn.join(', ')}`;
    const upstream = sequence.steps.find((s) => s.id === step.dependsOn[0]);
    if (!upstream || !baseSkill(upstream.skill)?.answersInteger)
      return `step ${step.id}: ${step.skill} takes a number from the answer of ${step.dependsOn[0]}, whose skill ${upstream?.skill ?? '(none)'} does not answer with an integer`;
  }
  return null;
}
