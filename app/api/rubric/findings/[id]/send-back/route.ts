// POST: send a backtest violation back to review (re-opens its generation; leads; audited).
import { requestDb } from '@/app/_server/db.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { sendFindingToReview } from '@/lib/missed-issues/index.ts';
import { errorResponse } from '../../../errors.ts';

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'rubric.manage');
  if (user instanceof Response) return user;
  try {
    return Response.json(await sendFindingToReview(await requestDb(), user, (await params).id));
  } catch (err) {
    return errorResponse(err);
  }
}
