// One item as its annotator sees it: the instruction, the turns, the artifacts and their own
// label — the blind read model (lib/calibration/annotator-view.ts), nothing else.
import { requestDb } from '@/app/_server/db.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { annotatorItemView } from '@/lib/calibration/index.ts';
import { respond } from '../../../../_respond.ts';

export async function GET(request: Request, { params }: { params: Promise<{ set: string; item: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'calibration.label');
  if (user instanceof Response) return user;
  const { set, item } = await params;
  const db = await requestDb();
  return respond(() => annotatorItemView(db, { setId: set, itemId: item, annotatorId: user.id }));
}
