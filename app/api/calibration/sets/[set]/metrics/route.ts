// GET: the set's metrics (recorded and re-scored verifier, verdicts, inter-annotator κ) and
// whether its tests changed since creation. Leads only: this is where the verifier shows.
import { requestDb } from '@/app/_server/db.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { calibrationVerifierStatus, getSetSummary, setMetrics } from '@/lib/calibration/index.ts';
import { respond } from '../../../_respond.ts';

export async function GET(request: Request, { params }: { params: Promise<{ set: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'calibration.manage');
  if (user instanceof Response) return user;
  const { set } = await params;
  const db = await requestDb();
  return respond(async () => ({
    set: await getSetSummary(db, set),
    metrics: await setMetrics(db, set),
    verifier: await calibrationVerifierStatus(db, set),
  }));
}
