// POST: dismiss an open missed issue (leads; audited).
import { z } from 'zod';
import { route } from '@/app/_server/route.ts';
import { dismissMissedIssue } from '@/lib/missed-issues/index.ts';

export const POST = route({ permission: 'rubric.manage', params: z.object({ id: z.string() }) }, async ({ db, user, params }) => ({
  missedIssue: await dismissMissedIssue(db, user, params.id),
}));
