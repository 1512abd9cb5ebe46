// POST a decision on a generation: approve, reject or request changes, on the revision the
// reviewer saw. The one server path for the review page and the queue's keyboard shortcuts.
// The answer names the next generation awaiting this reviewer.
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { decide, nextForReviewer } from '@/lib/review/index.ts';
import { decisionBodySchema, generationIdSchema } from '../../params.ts';
import { reviewErrorResponse } from '../../review-errors.ts';

export async function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'generation.decide');
  if (user instanceof Response) return user;
  const id = generationIdSchema.safeParse((await context.params).id);
  if (!id.success) return badRequest(id.error);
  const body = decisionBodySchema.safeParse(await request.json().catch(() => null));
  if (!body.success) return badRequest(body.error);
  try {
    const db = await requestDb();
    const outcome = await decide(db, { generationId: id.data, user, ...body.data });
    // Where the reviewer goes next, so the page can open it without a trip to the queue.
    return Response.json({ ...outcome, next: await nextForReviewer(db, user.id, id.data) });
  } catch (error) {
    return reviewErrorResponse(error);
  }
}
