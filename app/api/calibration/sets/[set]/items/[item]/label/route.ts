// POST {answer: pass|fail|unsure, note?, durationMs?}: the annotator's label; answers with their
// queue, already leased on the next item, so the page can show it at once.
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { labelInputSchema, submitLabel } from '@/lib/calibration/index.ts';
import { jsonBody, respond } from '../../../../../_respond.ts';

export async function POST(request: Request, { params }: { params: Promise<{ set: string; item: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'calibration.label');
  if (user instanceof Response) return user;
  const parsed = labelInputSchema.safeParse(await jsonBody(request));
  if (!parsed.success) return badRequest(parsed.error);
  const { set, item } = await params;
  const db = await requestDb();
  return respond(() => submitLabel(db, { setId: set, itemId: item, annotatorId: user.id }, parsed.data));
}
