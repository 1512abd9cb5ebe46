// GET ?policy=NAME: the lineage tree, with the probe pass rates of that policy (default: the
// lineage's probe policy).
import { found, route } from '@/app/_server/route.ts';
import { getLineageTree, lineageParamsSchema, treeQuerySchema } from '@/lib/dashboard/index.ts';
import { schedulerConfigFrom } from '@/lib/scheduler/index.ts';
import { settings } from '@/lib/config/index.ts';

export const GET = route({ permission: 'dashboard.read', params: lineageParamsSchema, query: treeQuerySchema }, async ({ db, params: { id }, query }) => ({
  tree: found(await getLineageTree(db, id, { config: schedulerConfigFrom(settings().scheduler), policy: query.policy }), `no lineage ${id}`),
}));
