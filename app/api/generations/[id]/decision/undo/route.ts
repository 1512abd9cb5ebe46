// GET says whether the caller's decision can still be undone (the page asks while it offers the
// undo); POST undoes it while nothing has built on it (lib/review/undo.ts).
import { route } from '@/app/_server/route.ts';
import { NotFoundError } from '@/lib/errors/index.ts';
import { undoableDecision, undoDecision, generationParamsSchema, undoBodySchema } from '@/lib/review/index.ts';

export const GET = route({ permission: 'generation.decide', params: generationParamsSchema, query: undoBodySchema }, async ({ db, user, params, query }) => {
  const decided = await undoableDecision(db, query.reviewId, user.id);
  if (!decided || decided.generationId !== params.id) throw new NotFoundError('there is no decision of yours with that id on this generation');
  return decided;
});

export const POST = route({ permission: 'generation.decide', params: generationParamsSchema, body: undoBodySchema }, ({ db, user, params, body }) =>
  undoDecision(db, { generationId: params.id, reviewId: body.reviewId, user }),
);
