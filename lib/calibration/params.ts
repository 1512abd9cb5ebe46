// The calibration routes' path parameters and the read models they answer with, beside the
// functions they guard.
import { z } from 'zod';
import type { Actor } from '../auth/index.ts';
import { can } from '../auth/index.ts';
import type { Db } from '../db/index.ts';
import { getSetSummary, listCalibrationSets, listSetsForAnnotator, type AnnotatorSetSummary, type SetSummary } from './sets.ts';
import { setMetrics } from './set-metrics.ts';
import { calibrationVerifierStatus } from './verifier-version.ts';

export const setParamsSchema = z.object({ set: z.string() });
export const itemParamsSchema = setParamsSchema.extend({ item: z.string() });

/** Every set with its strata for leads; only their own sets, with nothing of the verifier, for annotators. */
export async function setsVisibleTo(db: Db, actor: Actor & { id: string }): Promise<SetSummary[] | AnnotatorSetSummary[]> {
  return can(actor.role, 'calibration.manage') ? listCalibrationSets(db) : listSetsForAnnotator(db, actor.id);
}

export async function setMetricsView(db: Db, setId: string) {
  return { set: await getSetSummary(db, setId), metrics: await setMetrics(db, setId), verifier: await calibrationVerifierStatus(db, setId) };
}
