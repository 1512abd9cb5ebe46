// GET: the trajectories before and after this one in the list order its query string gives.
import { route } from '@/app/_server/route.ts';
import { rolloutParamsSchema, trajectoryNeighbours, trajectoryListQuerySchema } from '@/lib/trajectories/index.ts';

export const GET = route({ permission: 'trajectories.read', params: rolloutParamsSchema, query: trajectoryListQuerySchema }, ({ db, params, query }) =>
  trajectoryNeighbours(db, query, params.id),
);
