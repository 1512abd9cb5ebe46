// GET /api/drift/csv?chart=…&part=lines|band: the data behind one drift chart as CSV, for the
// same filter parameters as the page.
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { alertsCsv, chartBandCsv, chartLinesCsv, funnelCsv, spectrumCsv } from '@/lib/drift/csv.ts';
import { DEFAULT_SEED_FILTER, seedFunnel } from '@/lib/drift/funnel.ts';
import { loadDriftView } from '@/lib/drift/load-view.ts';
import { latestSeedFilterRun, loadFunnelCandidates } from '@/lib/drift/seed-filter.ts';
import { CHART_METRICS } from '@/app/drift/chart-data.ts';
import { chartSchema, parseDriftQuery } from '../params.ts';

function csvResponse(body: string, name: string): Response {
  return new Response(body, {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="drift-${name}.csv"` },
  });
}

export async function GET(request: Request): Promise<Response> {
  const caller = await guardRoute(request, 'drift.read');
  if (caller instanceof Response) return caller;
  const params = new URL(request.url).searchParams;
  const which = chartSchema.safeParse({ chart: params.get('chart') ?? undefined, part: params.get('part') || undefined });
  if (!which.success) return badRequest(which.error);
  params.delete('chart');
  params.delete('part');
  const query = parseDriftQuery(`http://drift/?${params}`);
  if (!query.success) return badRequest(query.error);
  const db = await requestDb();
  const { chart, part } = which.data;

  if (chart === 'funnel') {
    const run = await latestSeedFilterRun(db);
    const funnel = run?.funnel ?? seedFunnel(await loadFunnelCandidates(db, { policy: 'simulated' }), DEFAULT_SEED_FILTER);
    return csvResponse(funnelCsv(funnel), 'funnel');
  }
  const view = await loadDriftView(db, query.filter, query.thresholds);
  if (chart === 'spectrum') return csvResponse(spectrumCsv(view.spectrum), 'spectrum');
  if (chart === 'alerts') return csvResponse(alertsCsv(view.alerts), 'alerts');
  const charts = CHART_METRICS[chart]!.map((metric) => view.charts[metric]);
  const names = new Map(view.lineages.map((l) => [l.id, l.name]));
  const body = part === 'band' ? chartBandCsv(charts, query.filter.x) : chartLinesCsv(charts, query.filter.x, names);
  return csvResponse(body, `${chart}-${part}`);
}
