// PATCH /api/lineages/:id/gate {probePolicy?, releaseRate?, minGroup?, timeoutReward?, confirmWithdrawal?}
// (leads; audited): the lineage's release gate. A new probe policy re-evaluates the frontier from
// that policy's groups only; one that withdraws releases is refused (409 confirm_withdrawal, naming
// them) until confirmed; oracle and nop are refused (422). The answer is the frontier walk that followed.
import { settings } from '@/lib/config/index.ts';
import { route } from '@/app/_server/route.ts';
import { lineageParamsSchema } from '@/lib/dashboard/index.ts';
import { lineageGateChangeSchema, schedulerConfigFrom, setLineageGate } from '@/lib/scheduler/index.ts';

export const PATCH = route(
  { permission: 'lineage.configure', params: lineageParamsSchema, body: lineageGateChangeSchema },
  async ({ db, user, params, body: { confirmWithdrawal, ...patch } }) => ({
    result: await setLineageGate(db, user, params.id, patch, schedulerConfigFrom(settings().scheduler), { confirmWithdrawal }),
  }),
);
