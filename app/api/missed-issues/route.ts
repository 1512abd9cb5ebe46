// GET: missed issues (filters state, severity, validatorKind, generationId), open first.
// POST {generationId, title, description, severity, validatorKind, check?, question?}: file one.
import { z } from 'zod';
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { errorResponse } from '@/app/api/rubric/errors.ts';
import { fileMissedIssue, fileMissedIssueSchema, listMissedIssues, missedIssueFilterSchema } from '@/lib/missed-issues/index.ts';

export async function GET(request: Request): Promise<Response> {
  const user = await guardRoute(request, 'dashboard.read');
  if (user instanceof Response) return user;
  const parsed = missedIssueFilterSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return badRequest(parsed.error);
  return Response.json({ missedIssues: await listMissedIssues(await requestDb(), parsed.data) });
}

const body = fileMissedIssueSchema.extend({ generationId: z.string().min(1).max(64) });

export async function POST(request: Request): Promise<Response> {
  const user = await guardRoute(request, 'missed-issue.file');
  if (user instanceof Response) return user;
  const parsed = body.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return badRequest(parsed.error);
  const { generationId, ...fields } = parsed.data;
  try {
    const issue = await fileMissedIssue(await requestDb(), user, generationId, fields);
    return Response.json({ missedIssue: issue }, { status: 201 });
  } catch (err) {
    return errorResponse(err);
  }
}
