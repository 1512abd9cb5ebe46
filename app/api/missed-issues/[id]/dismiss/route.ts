// POST: dismiss an open missed issue (leads; audited).
import { requestDb } from '@/app/_server/db.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { errorResponse } from '@/app/api/rubric/errors.ts';
import { dismissMissedIssue } from '@/lib/missed-issues/index.ts';

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'rubric.manage');
  if (user instanceof Response) return user;
  try {
    return Response.json({ missedIssue: await dismissMissedIssue(await requestDb(), user, (await params).id) });
  } catch (err) {
    return errorResponse(err);
  }
}
