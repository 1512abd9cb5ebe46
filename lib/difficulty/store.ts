import type { Db } from '../db/client.ts';
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
    },
  });
}
