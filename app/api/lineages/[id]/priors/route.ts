// GET /api/lineages/:id/priors (readers): the reference priors the lineage's D is measured under
// (version, whether fitted, what it was fitted from) and the tables a lead may choose.
// PATCH {priors: "reference" | "fit-…"} (leads; audited): the table its later generations use.
import { route } from '@/app/_server/route.ts';
import { lineageParamsSchema } from '@/lib/dashboard/index.ts';
import { NotFoundError } from '@/lib/errors/index.ts';
import { lineagePriors, lineagePriorsPatchSchema, setLineagePriors } from '@/lib/evolution/index.ts';

export const GET = route({ permission: 'dashboard.read', params: lineageParamsSchema }, async ({ db, params }) => {
  const lineage = await db.lineage.findUnique({ where: { id: params.id }, select: { priorsVersion: true } });
  if (!lineage) throw new NotFoundError(`lineage ${params.id} not found`);
  return { lineageId: params.id, priors: await lineagePriors(db, lineage) };
});

export const PATCH = route(
  { permission: 'lineage.configure', params: lineageParamsSchema, body: lineagePriorsPatchSchema },
  async ({ db, user, params, body }) => {
    const row = await setLineagePriors(db, user, params.id, body);
    return { lineageId: params.id, priors: await lineagePriors(db, row) };
  },
);
