// GET /api/drift: the drift page's data as JSON (charts, spectrum, alerts) for the same URL parameters.
import { route } from '@/app/_server/route.ts';
import { loadDriftView, driftQuerySchema } from '@/lib/drift/index.ts';

export const GET = route({ permission: 'drift.read', query: driftQuerySchema }, ({ db, query }) => loadDriftView(db, query.filter, query.thresholds));
