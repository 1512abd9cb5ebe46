// POST {title, description, check?, question?, scope, appliesTo, key?, activate?}: turn an
// open missed issue into a rubric item (an inactive draft unless activate; leads; audited).
import { requestDb } from '@/app/_server/db.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { errorResponse } from '@/app/api/rubric/errors.ts';
import { badRequest } from '@/app/_server/http.ts';
import { convertMissedIssue, convertMissedIssueSchema } from '@/lib/missed-issues/index.ts';

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'rubric.manage');
  if (user instanceof Response) return user;
  const parsed = convertMissedIssueSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return badRequest(parsed.error);
  try {
    return Response.json(await convertMissedIssue(await requestDb(), user, (await params).id, parsed.data), { status: 201 });
  } catch (err) {
    return errorResponse(err);
  }
}
