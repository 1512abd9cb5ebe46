// D on the EnvironmentVersion row: the three components and the reference they were measured
// under, or, for a version with an undescribed step, no components and a model naming the steps.
import type { Db } from '../db/index.ts';
import { isKnown, type Difficulty } from './difficulty.ts';
import { UNKNOWN_DIFFICULTY_LABEL } from './opaque.ts';

// The model column of a version whose D is unknown: `undescribed:s1[,s2…]`.
const UNDESCRIBED_MODEL = 'undescribed:';

/** Writes the three components and the reference model onto the EnvironmentVersion row. */
export async function storeDifficulty(db: Db, versionId: string, d: Difficulty): Promise<void> {
  const known = isKnown(d);
  await db.environmentVersion.update({
    where: { id: versionId },
    data: {
      difficultyLength: known ? d.length : null,
      difficultyScenario: known ? d.scenarioNovelty : null,
      difficultySkill: known ? d.skillRarity : null,
      difficultyModel: known ? d.model : `${UNDESCRIBED_MODEL}${d.undescribed.join(',')}`,
      difficultyDepth: d.depth,
    },
  });
}

export interface KnownStoredDifficulty {
  length: number; // L, in expected agent turns (steps, under reference tables before ref-2026.12)
  depth: number | null; // longest dependency chain in steps; null for versions stored before it was kept
  scenarioNovelty: number;
  skillRarity: number;
  total: number;
  model: string;
}

// A version with an opaque step: no D, never a number standing in for one.
export interface UnknownStoredDifficulty {
  unknown: 'undescribed';
  label: string; // UNKNOWN_DIFFICULTY_LABEL, what is shown in place of D
  undescribedSteps: string[];
  depth: number | null; // the chain is known although its price is not
}

export type StoredDifficulty = KnownStoredDifficulty | UnknownStoredDifficulty;

export const isUnknownDifficulty = (d: StoredDifficulty): d is UnknownStoredDifficulty => 'unknown' in d;

export const STORED_DIFFICULTY_SELECT = {
  difficultyLength: true,
  difficultyScenario: true,
  difficultySkill: true,
  difficultyModel: true,
  difficultyDepth: true,
} as const;

export interface StoredDifficultyRow {
  difficultyLength: number | null;
  difficultyScenario: number | null;
  difficultySkill: number | null;
  difficultyModel: string | null;
  difficultyDepth?: number | null;
}

/** Whether the row holds a version whose D is unknown (an undescribed step). */
export const storedAsUnknown = (row: Pick<StoredDifficultyRow, 'difficultyModel'>): boolean => row.difficultyModel?.startsWith(UNDESCRIBED_MODEL) ?? false;

/** D as stored on a version row: known, unknown (an undescribed step), or null until it is computed. */
export function readStoredDifficulty(row: StoredDifficultyRow): StoredDifficulty | null {
  if (storedAsUnknown(row)) {
    const steps = row.difficultyModel!.slice(UNDESCRIBED_MODEL.length);
    return { unknown: 'undescribed', label: UNKNOWN_DIFFICULTY_LABEL, undescribedSteps: steps ? steps.split(',') : [], depth: row.difficultyDepth ?? null };
  }
  const { difficultyLength: length, difficultyScenario: scenarioNovelty, difficultySkill: skillRarity } = row;
  if (length === null || scenarioNovelty === null || skillRarity === null) return null;
  const depth = row.difficultyDepth ?? null;
  return { length, depth, scenarioNovelty, skillRarity, total: length + scenarioNovelty + skillRarity, model: row.difficultyModel ?? '' };
}

/** D as a number, for code that cannot go on without one (benchmarks, tests): throws when it is unknown or not computed. */
export function requireKnownDifficulty(d: StoredDifficulty | null | undefined, what: string): KnownStoredDifficulty {
  if (!d) throw new Error(`${what} has no difficulty computed`);
  if (isUnknownDifficulty(d)) throw new Error(`${what} has D ${d.label} (steps ${d.undescribedSteps.join(', ')})`);
  return d;
}
