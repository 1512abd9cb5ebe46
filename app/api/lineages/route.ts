// GET: one page of lineages, filtered and sorted as the list page's URL says.
import { route } from '@/app/_server/route.ts';
import { listLineages } from '@/lib/dashboard/lineages.ts';
import { lineageListSchema } from '@/lib/dashboard/lineages-params.ts';

export const GET = route({ permission: 'dashboard.read', query: lineageListSchema }, ({ db, query }) =>
  listLineages(db, { ...query, status: query.status || undefined }),
);
