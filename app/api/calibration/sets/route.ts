// GET: calibration sets — every set with its strata for leads, only their own sets (no verifier
// information at all) for annotators. POST: create a set (leads; audited).
import { route } from '@/app/_server/route.ts';
import { createCalibrationSet, newSetSchema, setsVisibleTo } from '@/lib/calibration/index.ts';

export const GET = route({ permission: 'calibration.label' }, async ({ db, user }) => ({ sets: await setsVisibleTo(db, user) }));

export const POST = route({ permission: 'calibration.manage', body: newSetSchema, status: 201 }, ({ db, user, body }) => createCalibrationSet(db, user, body));
