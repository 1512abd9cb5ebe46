// GET: every rubric key with its versions and the one in force.
import { route } from '@/app/_server/route.ts';
import { listRubricCatalogue } from '@/lib/rubric/index.ts';

export const GET = route({ permission: 'dashboard.read' }, async ({ db }) => ({ items: await listRubricCatalogue(db) }));
