// GET: the item's latest backtest job and findings. POST {states?}: queue a backtest (leads).
import { z } from 'zod';
import { route } from '@/app/_server/route.ts';
import { backtestRequestSchema, backtestView, enqueueBacktest } from '@/lib/rubric/index.ts';

const params = z.object({ id: z.string() });

export const GET = route({ permission: 'dashboard.read', params }, ({ db, params: { id } }) => backtestView(db, id));

export const POST = route({ permission: 'rubric.manage', params, body: backtestRequestSchema, status: 202 }, async ({ db, user, params: { id }, body }) => {
  const job = await enqueueBacktest(db, user, { itemId: id, states: body?.states });
  return { job: { id: job.id, state: job.state } };
});
