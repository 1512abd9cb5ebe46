// GET /api/metrics: Prometheus text exposition for Grafana. Scrape it with a bearer API token
// of a role with 'metrics.read' (admin, lead, trainer): `envolve tokens create --user … --name grafana`,
// then `authorization: { type: Bearer, credentials: <token> }` in the scrape config. Held-out
// lineages (the evaluation set) are left out unless the caller manages the scheduler.
import { route } from '@/app/_server/route.ts';
import { can } from '@/lib/auth/index.ts';
import { prometheusText, PROMETHEUS_CONTENT_TYPE } from '@/lib/drift/index.ts';

export const GET = route(
  { permission: 'metrics.read' },
  async ({ db, user }) =>
    new Response(await prometheusText(db, { heldOut: can(user.role, 'scheduler.manage') }), {
      headers: { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' },
    }),
);
