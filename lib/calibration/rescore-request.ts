// A lead asks for a re-score of a set with the current verifier. Refused when the tests have not
// changed since the set was created, unless forced; one job per set and verifier version. The
// job and its audit row commit together.
import { z } from 'zod';
import { recordAudit } from '../audit/index.ts';
import { assertCan, type Actor } from '../auth/index.ts';
import type { Db } from '../db/index.ts';
import { enqueue } from '../queue/index.ts';
import { CalibrationConflictError } from './errors.ts';
import { CALIBRATION_RESCORE_JOB } from './rescore.ts';
import { calibrationVerifierStatus } from './verifier-version.ts';

export const rescoreRequestSchema = z.object({ force: z.boolean().default(false) }).default({ force: false });

export async function requestRescore(db: Db, actor: Actor, setId: string, force: boolean): Promise<{ jobId: string; state: string; verifierVersion: string }> {
  assertCan(actor, 'calibration.manage');
  const status = await calibrationVerifierStatus(db, setId);
  if (!status.stale && !force) throw new CalibrationConflictError('the verifier has not changed since the set was created; nothing to re-score');
  return db.$transaction(async (tx) => {
    const job = await enqueue(tx, CALIBRATION_RESCORE_JOB, { setId, force }, { dedupeKey: `calibration.rescore:${setId}:${status.current}` });
    await recordAudit(tx, {
      actor,
      action: 'calibration.rescore',
      subjectType: 'calibration-set',
      subjectId: setId,
      after: { jobId: job.id, verifierVersion: status.current },
    });
    return { jobId: job.id, state: job.state, verifierVersion: status.current };
  });
}
