// POST {title, description, check?, question?, scope, appliesTo, key?, activate?}: turn an
// open missed issue into a rubric item (an inactive draft unless activate; leads; audited).
import { z } from 'zod';
import { route } from '@/app/_server/route.ts';
import { convertMissedIssue, convertMissedIssueSchema } from '@/lib/missed-issues/index.ts';

export const POST = route(
  { permission: 'rubric.manage', params: z.object({ id: z.string() }), body: convertMissedIssueSchema, status: 201 },
  ({ db, user, params, body }) => convertMissedIssue(db, user, params.id, body),
);
