// GET /api/metrics: Prometheus text exposition for Grafana. Scrape it with a bearer API token
// of a role with 'metrics.read' (admin, lead, trainer): `envolve tokens create --user … --name grafana`,
// then `authorization: { type: Bearer, credentials: <token> }` in the scrape config.
import { requestDb } from '@/app/_server/db.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { prometheusText } from '@/lib/drift/metrics-load.ts';
import { PROMETHEUS_CONTENT_TYPE } from '@/lib/drift/prometheus.ts';

export async function GET(request: Request): Promise<Response> {
  const caller = await guardRoute(request, 'metrics.read');
  if (caller instanceof Response) return caller;
  return new Response(await prometheusText(await requestDb()), { headers: { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' } });
}
