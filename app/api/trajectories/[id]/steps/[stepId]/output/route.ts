// GET: the whole output of one turn (the page shows a preview), as JSON.
import { found, route } from '@/app/_server/route.ts';
import { stepOutput, stepParamsSchema } from '@/lib/trajectories/index.ts';

export const GET = route({ permission: 'trajectories.read', params: stepParamsSchema }, async ({ db, params: { id, stepId } }) => ({
  output: found(await stepOutput(db, id, stepId), `trajectory ${id} has no step ${stepId}`),
}));
