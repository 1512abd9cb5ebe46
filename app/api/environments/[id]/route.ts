// GET: one environment version with its files and validator runs.
import { z } from 'zod';
import { found, route } from '@/app/_server/route.ts';
import { getEnvironment, environmentIdSchema } from '@/lib/dashboard/index.ts';

export const GET = route({ permission: 'dashboard.read', params: z.object({ id: environmentIdSchema }) }, async ({ db, params: { id } }) => ({
  environment: found(await getEnvironment(db, id), `no environment version ${id}`),
}));
