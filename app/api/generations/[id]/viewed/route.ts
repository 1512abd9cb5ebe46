// PUT a reviewer's "viewed" mark on one residual file. Anyone who may read the dashboard keeps
// their own marks: they are reading progress, not a decision.
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { setFileViewed } from '@/lib/review/index.ts';
import { generationIdSchema, viewedBodySchema } from '../../params.ts';
import { reviewErrorResponse } from '../../review-errors.ts';

export async function PUT(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'dashboard.read');
  if (user instanceof Response) return user;
  const id = generationIdSchema.safeParse((await context.params).id);
  if (!id.success) return badRequest(id.error);
  const body = viewedBodySchema.safeParse(await request.json().catch(() => null));
  if (!body.success) return badRequest(body.error);
  try {
    await setFileViewed(await requestDb(), { user, generationId: id.data, ...body.data });
  } catch (error) {
    return reviewErrorResponse(error);
  }
  return Response.json({ ok: true });
}
