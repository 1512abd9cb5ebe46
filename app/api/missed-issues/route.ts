// GET: missed issues (filters state, severity, validatorKind, generationId), open first.
// POST {generationId, title, description, severity, validatorKind, check?, question?}: file one.
import { route } from '@/app/_server/route.ts';
import { fileMissedIssue, fileMissedIssueRequestSchema, listMissedIssues, missedIssueFilterSchema } from '@/lib/missed-issues/index.ts';

export const GET = route({ permission: 'dashboard.read', query: missedIssueFilterSchema }, async ({ db, query }) => ({
  missedIssues: await listMissedIssues(db, query),
}));

export const POST = route(
  { permission: 'missed-issue.file', body: fileMissedIssueRequestSchema, status: 201 },
  async ({ db, user, body: { generationId, ...fields } }) => ({
    missedIssue: await fileMissedIssue(db, user, generationId, fields),
  }),
);
