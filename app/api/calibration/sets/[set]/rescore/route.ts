// POST {force?}: queue a re-score of the set with the current verifier (leads). Refused when the
// tests have not changed, unless forced; one job per set and verifier version.
import { z } from 'zod';
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { recordAudit } from '@/lib/audit/record.ts';
import { CALIBRATION_RESCORE_JOB, calibrationVerifierStatus, CalibrationConflictError } from '@/lib/calibration/index.ts';
import { enqueue } from '@/lib/queue/index.ts';
import { jsonBody, respond } from '../../../_respond.ts';

const bodySchema = z.object({ force: z.boolean().default(false) });

export async function POST(request: Request, { params }: { params: Promise<{ set: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'calibration.manage');
  if (user instanceof Response) return user;
  const parsed = bodySchema.safeParse((await jsonBody(request)) ?? {});
  if (!parsed.success) return badRequest(parsed.error);
  const { set } = await params;
  const db = await requestDb();
  return respond(async () => {
    const status = await calibrationVerifierStatus(db, set);
    if (!status.stale && !parsed.data.force) throw new CalibrationConflictError('the verifier has not changed since the set was created; nothing to re-score');
    const job = await enqueue(db, CALIBRATION_RESCORE_JOB, { setId: set, force: parsed.data.force }, { dedupeKey: `calibration.rescore:${set}:${status.current}` });
    await recordAudit(db, { actor: user, action: 'calibration.rescore', subjectType: 'calibration-set', subjectId: set, after: { jobId: job.id, verifierVersion: status.current } });
    return { jobId: job.id, state: job.state, verifierVersion: status.current };
  }, 202);
}
