// POST {reason}: flag this trajectory as a reward hack (compromises its version, opens a missed
// issue). DELETE: lift the compromise of its version (leads and admins). Both audited.
import { route } from '@/app/_server/route.ts';
import { rolloutParamsSchema, flagInputSchema, flagTrajectory, unflagTrajectoryVersion } from '@/lib/trajectories/index.ts';

export const POST = route({ permission: 'trajectory.flag', params: rolloutParamsSchema, body: flagInputSchema }, ({ db, user, params, body }) =>
  flagTrajectory(db, user, params.id, body),
);

export const DELETE = route({ permission: 'scheduler.manage', params: rolloutParamsSchema }, ({ db, user, params }) =>
  unflagTrajectoryVersion(db, user, params.id),
);
