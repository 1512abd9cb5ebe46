// GET ?policy=NAME: the lineage tree, with the probe pass rates of that policy (default: the
// lineage's probe policy).
import { found, route } from '@/app/_server/route.ts';
import { getLineageTree } from '@/lib/dashboard/lineages.ts';
import { lineageParamsSchema, treeQuerySchema } from '@/lib/dashboard/lineages-params.ts';
import { schedulerConfigFrom } from '@/lib/scheduler/config.ts';
import { settings } from '@/lib/config/settings.ts';

export const GET = route({ permission: 'dashboard.read', params: lineageParamsSchema, query: treeQuerySchema }, async ({ db, params: { id }, query }) => ({
  tree: found(await getLineageTree(db, id, { config: schedulerConfigFrom(settings().scheduler), policy: query.policy }), `no lineage ${id}`),
}));
