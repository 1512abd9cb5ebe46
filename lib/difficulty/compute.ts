// Difficulty of a stored version: resolve the reference priors its sequence needs (estimating
// and caching unknown names when an estimator is configured) over the given table (the lineage's
// fitted priors, or the shipped reference), then store the three components (or that D is unknown).
import type { Db } from '../db/index.ts';
import type { Sequence } from '../sequence/index.ts';
import { difficulty, type Difficulty } from './difficulty.ts';
import type { PriorEstimator } from './estimator.ts';
import type { ReferenceTable } from './reference-priors.ts';
import { resolvePriors } from './resolve.ts';
import { storeDifficulty } from './store.ts';

export async function computeDifficulty(
  db: Db,
  versionId: string,
  sequence: Sequence,
  estimator?: PriorEstimator,
  table?: ReferenceTable,
): Promise<Difficulty> {
  const d = difficulty(sequence, await resolvePriors(db, sequence, estimator, table));
  await storeDifficulty(db, versionId, d);
  return d;
}
