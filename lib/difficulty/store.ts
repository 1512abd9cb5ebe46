import type { Db } from '../db/index.ts';
import type { Difficulty } from './difficulty.ts';

/** Writes the three components and the reference model onto the EnvironmentVersion row. */
export async function storeDifficulty(db: Db, versionId: string, d: Difficulty): Promise<void> {
  await db.environmentVersion.update({
    where: { id: versionId },
    data: {
      difficultyLength: d.length,
      difficultyScenario: d.scenarioNovelty,
      difficultySkill: d.skillRarity,
      difficultyModel: d.model,
      difficultyDepth: d.depth,
    },
  });
}

export interface StoredDifficulty {
  length: number; // L, in expected agent turns (steps, under reference tables before ref-2026.12)
  depth: number | null; // longest dependency chain in steps; null for versions stored before it was kept
  scenarioNovelty: number;
  skillRarity: number;
  total: number;
  model: string;
}

export const STORED_DIFFICULTY_SELECT = {
  difficultyLength: true,
  difficultyScenario: true,
  difficultySkill: true,
  difficultyModel: true,
  difficultyDepth: true,
} as const;

/** The three components as stored on a version row, or null until its sequence is known. */
export function readStoredDifficulty(row: {
  difficultyLength: number | null;
  difficultyScenario: number | null;
  difficultySkill: number | null;
  difficultyModel: string | null;
  difficultyDepth?: number | null;
}): StoredDifficulty | null {
  const { difficultyLength: length, difficultyScenario: scenarioNovelty, difficultySkill: skillRarity } = row;
  if (length === null || scenarioNovelty === null || skillRarity === null) return null;
  const depth = row.difficultyDepth ?? null;
  return { length, depth, scenarioNovelty, skillRarity, total: length + scenarioNovelty + skillRarity, model: row.difficultyModel ?? '' };
}
