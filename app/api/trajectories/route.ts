// GET: one page of trajectories, filtered and sorted as the list page's URL says.
import { route } from '@/app/_server/route.ts';
import { listTrajectories } from '@/lib/trajectories/list.ts';
import { trajectoryListQuerySchema } from '@/lib/trajectories/list-query.ts';

export const GET = route({ permission: 'trajectories.read', query: trajectoryListQuerySchema }, ({ db, query }) => listTrajectories(db, query));
