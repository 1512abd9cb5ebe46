// GET ?phase=: one phase's log of a validator run, as text.
import { z } from 'zod';
import { found, route } from '@/app/_server/route.ts';
import { getValidatorRunLog, logPhaseSchema, validatorRunIdSchema } from '@/lib/dashboard/index.ts';

export const GET = route(
  { permission: 'dashboard.read', params: z.object({ id: validatorRunIdSchema }), query: z.object({ phase: logPhaseSchema }) },
  async ({ db, params: { id }, query }) =>
    new Response(found(await getValidatorRunLog(db, id, query.phase), `no validator run ${id}`), { headers: { 'content-type': 'text/plain; charset=utf-8' } }),
);
