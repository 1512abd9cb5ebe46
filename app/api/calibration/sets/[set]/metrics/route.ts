// GET: the set's metrics (recorded and re-scored verifier, verdicts, inter-annotator κ) and
// whether its tests changed since creation. Leads only: this is where the verifier shows.
import { route } from '@/app/_server/route.ts';
import { setMetricsView, setParamsSchema } from '@/lib/calibration/index.ts';

export const GET = route({ permission: 'calibration.manage', params: setParamsSchema }, ({ db, params }) => setMetricsView(db, params.set));
