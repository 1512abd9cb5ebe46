// GET /api/drift: the drift page's data as JSON (charts, spectrum, alerts) for the same URL parameters.
import { route } from '@/app/_server/route.ts';
import { loadDriftViewJson } from '@/lib/drift/load-view.ts';
import { driftQuerySchema } from '@/lib/drift/query.ts';

export const GET = route(
  { permission: 'drift.read', query: driftQuerySchema },
  async ({ db, query }) => new Response(await loadDriftViewJson(db, query.filter, query.thresholds), { headers: { 'content-type': 'application/json' } }),
);
