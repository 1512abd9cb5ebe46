// POST /api/v1/trainer/groups {versionId, rewards: (number|null)[], timedOut?: boolean[], policy?}:
// the rewards of one rollout group; the scheduler updates pass rates and frontiers.
import { settings } from '@/lib/config/index.ts';
import { route } from '@/app/_server/route.ts';
import { reportTrainerGroup, schedulerConfigFrom, trainerReportSchema } from '@/lib/scheduler/index.ts';

export const POST = route({ permission: 'trainer.api', body: trainerReportSchema, status: 201 }, ({ db, body }) =>
  reportTrainerGroup(db, body, schedulerConfigFrom(settings().scheduler)),
);
