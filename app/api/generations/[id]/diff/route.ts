// GET one residual file's diff (?attempt=N&path=…), fetched when the reviewer expands the file.
import { requestDb } from '@/app/_server/db.ts';
import { badRequest, notFound } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { getResidualFileDiff } from '@/lib/dashboard/generation.ts';
import { diffQuerySchema, generationIdSchema } from '../../params.ts';

export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'dashboard.read');
  if (user instanceof Response) return user;
  const id = generationIdSchema.safeParse((await context.params).id);
  if (!id.success) return badRequest(id.error);
  const query = diffQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return badRequest(query.error);
  const diff = await getResidualFileDiff(await requestDb(), id.data, query.data.attempt, query.data.path);
  if (!diff) return notFound(`no file ${query.data.path} in attempt ${query.data.attempt} of generation ${id.data}`);
  // A stored attempt's residual never changes.
  return Response.json(diff, { headers: { 'cache-control': 'private, max-age=3600' } });
}
