// How likely the simulated agent is to get a step of a given skill right. The default profile is
// drawn from a seed, per skill name, uniformly between 0.5 and 0.95: independent of the reference
// priors that define D (lib/difficulty), so that r(D, pass rate) under the simulated policy is not
// computed from the same table on both sides. Its figures test the pipeline, not the method. A
// profile can be given as an object or a JSON file: fixed skills, a seed for the rest, a default.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { hashSeed } from '../synth/index.ts';

const probability = z.number().min(0).max(1);

export const competenceProfileSchema = z.strictObject({
  default: probability, // a skill neither named nor drawn
  seed: z.number().int().min(0).optional(), // draw every skill not named from this seed
  skills: z.record(z.string().min(1), probability).default({}),
});

export type CompetenceProfile = z.infer<typeof competenceProfileSchema>;

export const DEFAULT_COMPETENCE_SEED = 20261202;
const LOWEST = 0.5;
const HIGHEST = 0.95;

export function defaultCompetence(): CompetenceProfile {
  return { default: LOWEST, seed: DEFAULT_COMPETENCE_SEED, skills: {} };
}

function drawn(seed: number, skill: string): number {
  const u = hashSeed('envolve-competence', seed, skill) / 2 ** 32;
  return Math.round((LOWEST + (HIGHEST - LOWEST) * u) * 100) / 100;
}

export function competenceFor(profile: CompetenceProfile, skill: string): number {
  return profile.skills[skill] ?? (profile.seed === undefined ? profile.default : drawn(profile.seed, skill));
}

export function parseCompetenceProfile(value: unknown, source = 'competence profile'): CompetenceProfile {
  const parsed = competenceProfileSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`${source} is invalid (expected {"default": p, "seed"?: n, "skills": {"name": p}} with 0 ≤ p ≤ 1): ${issues}`);
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
