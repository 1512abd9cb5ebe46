import { requestDb } from '@/app/_server/db.ts';
import { badRequest, notFound } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { getLineageTree } from '@/lib/dashboard/lineages.ts';
import { lineageIdSchema } from '@/lib/dashboard/lineages-params.ts';

export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const caller = await guardRoute(request, 'dashboard.read');
  if (caller instanceof Response) return caller;
  const id = lineageIdSchema.safeParse((await context.params).id);
  if (!id.success) return badRequest(id.error);
  const tree = await getLineageTree(await requestDb(), id.data);
  if (!tree) return notFound(`no lineage ${id.data}`);
  return Response.json({ tree });
}
