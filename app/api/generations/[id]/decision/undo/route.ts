// POST undoes the caller's own decision on this generation within the undo window (lib/review/undo.ts).
import { route } from '@/app/_server/route.ts';
import { undoDecision, generationParamsSchema, undoBodySchema } from '@/lib/review/index.ts';

export const POST = route({ permission: 'generation.decide', params: generationParamsSchema, body: undoBodySchema }, ({ db, user, params, body }) =>
  undoDecision(db, { generationId: params.id, reviewId: body.reviewId, user }),
);
