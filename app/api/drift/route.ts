// GET /api/drift: the drift page's data as JSON (charts, spectrum, alerts) for the same URL parameters.
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { loadDriftView } from '@/lib/drift/load-view.ts';
import { parseDriftQuery } from './params.ts';

export async function GET(request: Request): Promise<Response> {
  const caller = await guardRoute(request, 'drift.read');
  if (caller instanceof Response) return caller;
  const query = parseDriftQuery(request.url);
  if (!query.success) return badRequest(query.error);
  return Response.json(await loadDriftView(await requestDb(), query.filter, query.thresholds));
}
