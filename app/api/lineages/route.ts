// GET: one page of lineages, filtered and sorted as the list page's URL says.
import { route } from '@/app/_server/route.ts';
import { listLineages, lineageListSchema } from '@/lib/dashboard/index.ts';

export const GET = route({ permission: 'dashboard.read', query: lineageListSchema }, ({ db, query }) =>
  listLineages(db, { ...query, status: query.status || undefined }),
);
