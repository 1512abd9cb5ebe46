// GET ?q=: the environment versions, by name.
import { route } from '@/app/_server/route.ts';
import { listEnvironments, environmentSearchSchema } from '@/lib/dashboard/index.ts';

export const GET = route({ permission: 'dashboard.read', query: environmentSearchSchema }, async ({ db, query }) => ({
  environments: await listEnvironments(db, { nameContains: query.q || undefined }),
}));
