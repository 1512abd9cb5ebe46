// GET /api/drift/alerts: the current alerts and the thresholds that raised them. Thresholds and
// filters are URL parameters (stalledDays, flatGenerations, flatTolerance, noSignalGenerations,
// spikeRate, spikeOverBaseline, spikeRecent; seed, axisPolicy, synthesiser, from, to, lineage).
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { loadDriftView } from '@/lib/drift/load-view.ts';
import { parseDriftQuery } from '../params.ts';

export async function GET(request: Request): Promise<Response> {
  const caller = await guardRoute(request, 'drift.read');
  if (caller instanceof Response) return caller;
  const query = parseDriftQuery(request.url);
  if (!query.success) return badRequest(query.error);
  const view = await loadDriftView(await requestDb(), query.filter, query.thresholds);
  return Response.json({ thresholds: query.thresholds, alerts: view.alerts });
}
