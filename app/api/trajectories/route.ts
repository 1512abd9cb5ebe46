// GET: one page of trajectories, filtered and sorted as the list page's URL says.
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { listTrajectories } from '@/lib/trajectories/list.ts';
import { parseTrajectoryList } from '@/lib/trajectories/list-query.ts';

export async function GET(request: Request): Promise<Response> {
  const caller = await guardRoute(request, 'trajectories.read');
  if (caller instanceof Response) return caller;
  const query = parseTrajectoryList(new URL(request.url).searchParams);
  if (!query.success) return badRequest(query.error);
  return Response.json(await listTrajectories(await requestDb(), query.data));
}
