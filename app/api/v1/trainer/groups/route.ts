import { requestDb } from '@/app/_server/db.ts';
import { badRequest, notFound } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { NotServableError, reportTrainerGroup, schedulerConfigFrom, trainerReportSchema, UnknownVersionError } from '@/lib/scheduler/index.ts';
import { trainerReportRefusal } from '@/lib/scheduler/report-refusal.ts';

// POST /api/v1/trainer/groups {versionId, rewards: (number|null)[], timedOut?: boolean[], policy?}:
// the rewards of one rollout group; the scheduler updates pass rates and frontiers.
export async function POST(request: Request): Promise<Response> {
  const caller = await guardRoute(request, 'trainer.api');
  if (caller instanceof Response) return caller;
  const body: unknown = await request.json().catch(() => undefined);
  if (body === undefined) return Response.json({ error: 'bad_request', message: 'the body must be JSON' }, { status: 400 });
  const parsed = trainerReportSchema.safeParse(body);
  if (!parsed.success) return badRequest(parsed.error);
  const db = await requestDb();
  const refusal = await trainerReportRefusal(db, parsed.data);
  if (refusal?.kind === 'unknown_version') return notFound(refusal.message);
  if (refusal) return Response.json({ error: refusal.kind, message: refusal.message }, { status: refusal.kind === 'reward_out_of_range' ? 422 : 403 });
  try {
    const result = await reportTrainerGroup(db, parsed.data, schedulerConfigFrom());
    return Response.json(result, { status: 201 });
  } catch (err) {
    if (err instanceof UnknownVersionError) return notFound(err.message);
    if (err instanceof NotServableError) return Response.json({ error: 'held_out', message: err.message }, { status: 403 });
    throw err;
  }
}
