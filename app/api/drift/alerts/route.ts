// GET /api/drift/alerts: the current alerts and the thresholds that raised them. Thresholds and
// filters are URL parameters (stalledDays, waitingHours, flatGenerations, flatTolerance, noSignalGenerations,
// spikeRate, spikeOverBaseline, spikeRecent; seed, axisPolicy, synthesiser, from, to, lineage).
import { route } from '@/app/_server/route.ts';
import { loadDriftView, driftQuerySchema } from '@/lib/drift/index.ts';

export const GET = route({ permission: 'drift.read', query: driftQuerySchema }, async ({ db, query }) => ({
  thresholds: query.thresholds,
  alerts: (await loadDriftView(db, query.filter, query.thresholds)).alerts,
}));
