// GET: the trajectories before and after this one in the list order its query string gives.
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { rolloutIdSchema } from '@/lib/trajectories/detail.ts';
import { trajectoryNeighbours } from '@/lib/trajectories/list.ts';
import { parseTrajectoryList } from '@/lib/trajectories/list-query.ts';

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const caller = await guardRoute(request, 'trajectories.read');
  if (caller instanceof Response) return caller;
  const id = rolloutIdSchema.safeParse((await params).id);
  if (!id.success) return badRequest(id.error);
  const query = parseTrajectoryList(new URL(request.url).searchParams);
  if (!query.success) return badRequest(query.error);
  return Response.json(await trajectoryNeighbours(await requestDb(), query.data, id.data));
}
