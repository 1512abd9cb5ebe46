// How likely the simulated agent is to get a step of a given skill right. The default follows
// the reference priors of lib/difficulty: the more common a skill is at a terminal, the more
// competent the agent (0.95 for the commonest, 0.5 for the rarest known); a skill the table does
// not know is rarer than all of them (0.45). A profile can be given as an object or a JSON file.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { SKILL_WEIGHTS } from '../difficulty/reference-priors.ts';

const probability = z.number().min(0).max(1);

export const competenceProfileSchema = z.strictObject({
  default: probability,
  skills: z.record(z.string().min(1), probability).default({}),
});

export type CompetenceProfile = z.infer<typeof competenceProfileSchema>;

const MOST = 0.95;
const LEAST_KNOWN = 0.5;
const UNKNOWN = 0.45;

export function defaultCompetence(): CompetenceProfile {
  const weights = Object.entries(SKILL_WEIGHTS);
  const logs = weights.map(([, w]) => Math.log(w));
  const lo = Math.min(...logs);
  const hi = Math.max(...logs);
  const skills = Object.fromEntries(weights.map(([name, w]) => [name, round2(LEAST_KNOWN + ((MOST - LEAST_KNOWN) * (Math.log(w) - lo)) / (hi - lo))]));
  return { default: UNKNOWN, skills };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export function competenceFor(profile: CompetenceProfile, skill: string): number {
  return profile.skills[skill] ?? profile.default;
}

export function parseCompetenceProfile(value: unknown, source = 'competence profile'): CompetenceProfile {
  const parsed = competenceProfileSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`${source} is invalid (expected {"default": p, "skills": {"name": p}} with 0 ≤ p ≤ 1): ${issues}`);
  }
  return parsed.data;
}

export function loadCompetenceProfile(path: string): CompetenceProfile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the competence profile ${path}: ${(err as Error).message}`, { cause: err });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`the competence profile ${path} is not JSON: ${(err as Error).message}`, { cause: err });
  }
  return parseCompetenceProfile(value, path);
}
