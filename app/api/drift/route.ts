// GET /api/drift: the drift page's data as JSON (charts, spectrum, alerts) for the same URL parameters.
// The JSON comes from the drift memo as it was serialised; the web server compresses it like any answer.
import { route } from '@/app/_server/route.ts';
import { loadDriftViewJson, driftQuerySchema } from '@/lib/drift/index.ts';

export const GET = route(
  { permission: 'drift.read', query: driftQuerySchema },
  async ({ db, query }) =>
    new Response((await loadDriftViewJson(db, query.filter, query.thresholds)).json, { headers: { 'content-type': 'application/json' } }),
);
