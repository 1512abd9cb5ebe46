// Review comments on a generation: GET lists them, POST adds one (optionally pinned to a line).
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { addComment, listComments } from '@/lib/review/index.ts';
import { commentBodySchema, generationIdSchema } from '../../params.ts';
import { reviewErrorResponse } from '../../review-errors.ts';

type Context = { params: Promise<{ id: string }> };

export async function GET(request: Request, context: Context): Promise<Response> {
  const user = await guardRoute(request, 'dashboard.read');
  if (user instanceof Response) return user;
  const id = generationIdSchema.safeParse((await context.params).id);
  if (!id.success) return badRequest(id.error);
  return Response.json({ comments: await listComments(await requestDb(), id.data) });
}

export async function POST(request: Request, context: Context): Promise<Response> {
  const user = await guardRoute(request, 'generation.comment');
  if (user instanceof Response) return user;
  const id = generationIdSchema.safeParse((await context.params).id);
  if (!id.success) return badRequest(id.error);
  const body = commentBodySchema.safeParse(await request.json().catch(() => null));
  if (!body.success) return badRequest(body.error);
  try {
    const comment = await addComment(await requestDb(), { generationId: id.data, user, ...body.data });
    return Response.json({ comment }, { status: 201 });
  } catch (error) {
    return reviewErrorResponse(error);
  }
}
