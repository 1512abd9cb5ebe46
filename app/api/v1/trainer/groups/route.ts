// POST /api/v1/trainer/groups {versionId, rewards: (number|null)[], timedOut?: boolean[], policy?, policyVersion?}
// (policy defaults to trainer, policyVersion to the empty version) with an optional Idempotency-Key
// header: the rewards of one rollout group, under a policy the caller's token names; the scheduler
// updates pass rates and frontiers. 201 with the new group; the same key and body again: 200 with
// the first answer and `Idempotency-Replayed: true`.
import { settings } from '@/lib/config/index.ts';
import { route } from '@/app/_server/route.ts';
import {
  IDEMPOTENCY_REPLAYED_HEADER,
  idempotencyKeyOf,
  reportTrainerGroup,
  schedulerConfigFrom,
  trainerReporterOf,
  trainerReportSchema,
} from '@/lib/scheduler/index.ts';

export const POST = route({ permission: 'trainer.api', body: trainerReportSchema }, async ({ db, body, user, request }) => {
  const { result, replayed } = await reportTrainerGroup(db, body, schedulerConfigFrom(settings().scheduler), trainerReporterOf(user), {
    idempotencyKey: idempotencyKeyOf(request.headers),
    idempotencyTtlMs: settings().trainer.idempotencyTtlMs,
  });
  return Response.json(result, { status: replayed ? 200 : 201, headers: replayed ? { [IDEMPOTENCY_REPLAYED_HEADER]: 'true' } : {} });
});
