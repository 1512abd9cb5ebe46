// PATCH /api/lineages/:id/gate {probePolicy?, releaseRate?, minGroup?, timeoutReward?} (leads;
// audited): the lineage's release gate. A new probe policy re-evaluates the frontier from that
// policy's groups only; the answer is the frontier walk that followed.
import { settings } from '@/lib/config/settings.ts';
import { route } from '@/app/_server/route.ts';
import { lineageParamsSchema } from '@/lib/dashboard/lineages-params.ts';
import { lineageGatePatchSchema, schedulerConfigFrom, setLineageGate } from '@/lib/scheduler/index.ts';

export const PATCH = route(
  { permission: 'lineage.configure', params: lineageParamsSchema, body: lineageGatePatchSchema },
  async ({ db, user, params, body }) => ({
    result: await setLineageGate(db, user, params.id, body, schedulerConfigFrom(settings().scheduler)),
  }),
);
