// The signed-in annotator's queue on a set. GET reads it; POST also leases them their next item
// (or resumes the one they hold). Item ids and their own progress only: nothing of the verifier.
import { requestDb } from '@/app/_server/db.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { claimNext, peekQueue } from '@/lib/calibration/index.ts';
import { respond } from '../../../_respond.ts';

type Params = { params: Promise<{ set: string }> };

export async function GET(request: Request, { params }: Params): Promise<Response> {
  const user = await guardRoute(request, 'calibration.label');
  if (user instanceof Response) return user;
  const { set } = await params;
  const db = await requestDb();
  return respond(() => peekQueue(db, set, user.id));
}

export async function POST(request: Request, { params }: Params): Promise<Response> {
  const user = await guardRoute(request, 'calibration.label');
  if (user instanceof Response) return user;
  const { set } = await params;
  const db = await requestDb();
  return respond(() => claimNext(db, set, user.id));
}
