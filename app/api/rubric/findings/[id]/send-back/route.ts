// POST: send a backtest violation back to review (re-opens its generation; leads; audited).
import { z } from 'zod';
import { route } from '@/app/_server/route.ts';
import { sendFindingToReview } from '@/lib/missed-issues/index.ts';

export const POST = route({ permission: 'rubric.manage', params: z.object({ id: z.string() }) }, ({ db, user, params }) =>
  sendFindingToReview(db, user, params.id),
);
