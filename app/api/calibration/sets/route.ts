// GET: calibration sets — every set with its strata for leads, only their own sets (no verifier
// information at all) for annotators. POST: create a set (leads; audited).
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { can } from '@/lib/auth/roles.ts';
import { createCalibrationSet, listCalibrationSets, listSetsForAnnotator, newSetSchema } from '@/lib/calibration/index.ts';
import { jsonBody, respond } from '../_respond.ts';

export async function GET(request: Request): Promise<Response> {
  const user = await guardRoute(request, 'calibration.label');
  if (user instanceof Response) return user;
  const db = await requestDb();
  return respond(async () =>
    can(user.role, 'calibration.manage') ? { sets: await listCalibrationSets(db) } : { sets: await listSetsForAnnotator(db, user.id) },
  );
}

export async function POST(request: Request): Promise<Response> {
  const user = await guardRoute(request, 'calibration.manage');
  if (user instanceof Response) return user;
  const parsed = newSetSchema.safeParse(await jsonBody(request));
  if (!parsed.success) return badRequest(parsed.error);
  const db = await requestDb();
  return respond(() => createCalibrationSet(db, user, parsed.data), 201);
}
