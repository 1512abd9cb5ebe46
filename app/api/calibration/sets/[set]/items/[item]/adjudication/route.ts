// POST {label: pass|fail|unsure, note?}: a lead's final label on an item the annotators disagree on (audited).
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { adjudicate, adjudicationSchema } from '@/lib/calibration/index.ts';
import { jsonBody, respond } from '../../../../../_respond.ts';

export async function POST(request: Request, { params }: { params: Promise<{ set: string; item: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'calibration.manage');
  if (user instanceof Response) return user;
  const parsed = adjudicationSchema.safeParse(await jsonBody(request));
  if (!parsed.success) return badRequest(parsed.error);
  const { set, item } = await params;
  const db = await requestDb();
  return respond(() => adjudicate(db, user, { setId: set, itemId: item }, parsed.data));
}
