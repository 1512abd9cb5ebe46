// POST undoes the caller's own decision on this generation within the undo window (lib/review/undo.ts).
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { undoDecision } from '@/lib/review/index.ts';
import { generationIdSchema, undoBodySchema } from '../../../params.ts';
import { reviewErrorResponse } from '../../../review-errors.ts';

export async function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'generation.decide');
  if (user instanceof Response) return user;
  const id = generationIdSchema.safeParse((await context.params).id);
  if (!id.success) return badRequest(id.error);
  const body = undoBodySchema.safeParse(await request.json().catch(() => null));
  if (!body.success) return badRequest(body.error);
  try {
    return Response.json(await undoDecision(await requestDb(), { generationId: id.data, reviewId: body.data.reviewId, user }));
  } catch (error) {
    return reviewErrorResponse(error);
  }
}
