// GET ?path=: the content of a file the agent changed in this trajectory.
import { found, route } from '@/app/_server/route.ts';
import { changedFileContent, changedFileQuerySchema, rolloutParamsSchema } from '@/lib/trajectories/index.ts';

export const GET = route(
  { permission: 'trajectories.read', params: rolloutParamsSchema, query: changedFileQuerySchema },
  async ({ db, params: { id }, query: { path } }) => found(await changedFileContent(db, id, path), `trajectory ${id} did not change ${path}`),
);
