// Difficulty of a stored version: resolve the reference priors its sequence needs (estimating
// and caching unknown names when an estimator is configured), then store the three components.
import type { Db } from '../db/index.ts';
import type { Sequence } from '../sequence/index.ts';
import { difficulty, type Difficulty } from './difficulty.ts';
import type { PriorEstimator } from './estimator.ts';
import { resolvePriors } from './resolve.ts';
import { storeDifficulty } from './store.ts';

export async function computeDifficulty(db: Db, versionId: string, sequence: Sequence, estimator?: PriorEstimator): Promise<Difficulty> {
  const d = difficulty(sequence, await resolvePriors(db, sequence, estimator));
  await storeDifficulty(db, versionId, d);
  return d;
}
