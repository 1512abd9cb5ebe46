import { requestDb } from '@/app/_server/db.ts';
import { badRequest, notFound } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { ReportRefusedError, reportTrainerGroup, schedulerConfigFrom, trainerReportSchema } from '@/lib/scheduler/index.ts';
import { settings } from '@/lib/config/settings.ts';

// POST /api/v1/trainer/groups {versionId, rewards: (number|null)[], timedOut?: boolean[], policy?}:
// the rewards of one rollout group; the scheduler updates pass rates and frontiers.
export async function POST(request: Request): Promise<Response> {
  const caller = await guardRoute(request, 'trainer.api');
  if (caller instanceof Response) return caller;
  const body: unknown = await request.json().catch(() => undefined);
  if (body === undefined) return Response.json({ error: 'bad_request', message: 'the body must be JSON' }, { status: 400 });
  const parsed = trainerReportSchema.safeParse(body);
  if (!parsed.success) return badRequest(parsed.error);
  try {
    const result = await reportTrainerGroup(await requestDb(), parsed.data, schedulerConfigFrom(settings().scheduler));
    return Response.json(result, { status: 201 });
  } catch (err) {
    if (!(err instanceof ReportRefusedError)) throw err;
    const { kind, message } = err.refusal;
    if (kind === 'unknown_version') return notFound(message);
    return Response.json({ error: kind, message }, { status: kind === 'reward_out_of_range' ? 422 : 403 });
  }
}
