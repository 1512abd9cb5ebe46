// GET: one page of trajectories, filtered and sorted as the list page's URL says.
import { route } from '@/app/_server/route.ts';
import { listTrajectories, trajectoryListQuerySchema } from '@/lib/trajectories/index.ts';

export const GET = route({ permission: 'trajectories.read', query: trajectoryListQuerySchema }, ({ db, query }) => listTrajectories(db, query));
