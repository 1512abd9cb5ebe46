// GET /api/drift: the drift page's data as JSON (charts, spectrum, alerts) for the same URL parameters.
import { precompressedJson } from '@/app/_server/precompressed.ts';
import { route } from '@/app/_server/route.ts';
import { loadDriftViewJson, driftQuerySchema } from '@/lib/drift/index.ts';

export const GET = route({ permission: 'drift.read', query: driftQuerySchema }, async ({ request, db, query }) =>
  precompressedJson(request, await loadDriftViewJson(db, query.filter, query.thresholds)),
);
