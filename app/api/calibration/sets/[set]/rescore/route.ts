// POST {force?}: queue a re-score of the set with the current verifier (leads; audited).
import { route } from '@/app/_server/route.ts';
import { requestRescore, rescoreRequestSchema, setParamsSchema } from '@/lib/calibration/index.ts';

export const POST = route(
  { permission: 'calibration.manage', params: setParamsSchema, body: rescoreRequestSchema, status: 202 },
  ({ db, user, params, body }) => requestRescore(db, user, params.set, body.force),
);
