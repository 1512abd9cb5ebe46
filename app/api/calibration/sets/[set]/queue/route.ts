// The signed-in annotator's queue on a set. GET reads it; POST also leases them their next item
// (or resumes the one they hold). Item ids and their own progress only: nothing of the verifier.
import { route } from '@/app/_server/route.ts';
import { claimNext, peekQueue, setParamsSchema } from '@/lib/calibration/index.ts';

export const GET = route({ permission: 'calibration.label', params: setParamsSchema }, ({ db, user, params }) => peekQueue(db, params.set, user.id));

export const POST = route({ permission: 'calibration.label', params: setParamsSchema }, ({ db, user, params }) => claimNext(db, params.set, user.id));
