// GET /api/metrics: Prometheus text exposition for Grafana. Scrape it with a bearer API token
// of a role with 'metrics.read' (admin, lead, trainer): `envolve tokens create --user … --name grafana`,
// then `authorization: { type: Bearer, credentials: <token> }` in the scrape config.
import { route } from '@/app/_server/route.ts';
import { prometheusText } from '@/lib/drift/metrics-load.ts';
import { PROMETHEUS_CONTENT_TYPE } from '@/lib/drift/prometheus.ts';

export const GET = route(
  { permission: 'metrics.read' },
  async ({ db }) => new Response(await prometheusText(db), { headers: { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' } }),
);
