// POST {reason}: flag this trajectory as a reward hack (compromises its version, opens a missed
// issue). DELETE: lift the compromise of its version (leads and admins). Both audited.
import { requestDb } from '@/app/_server/db.ts';
import { badRequest, notFound } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { errorResponse } from '@/app/api/rubric/errors.ts';
import { rolloutIdSchema } from '@/lib/trajectories/detail.ts';
import { flagInputSchema, flagTrajectory, unflagVersion } from '@/lib/trajectories/flag.ts';

export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'trajectory.flag');
  if (user instanceof Response) return user;
  const id = rolloutIdSchema.safeParse((await params).id);
  if (!id.success) return badRequest(id.error);
  const body = flagInputSchema.safeParse(await request.json().catch(() => null));
  if (!body.success) return badRequest(body.error);
  try {
    return Response.json(await flagTrajectory(await requestDb(), user, id.data, body.data));
  } catch (err) {
    return errorResponse(err);
  }
}

export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'scheduler.manage');
  if (user instanceof Response) return user;
  const id = rolloutIdSchema.safeParse((await params).id);
  if (!id.success) return badRequest(id.error);
  const db = await requestDb();
  const rollout = await db.rollout.findUnique({ where: { id: id.data }, select: { versionId: true } });
  if (!rollout) return notFound(`trajectory ${id.data} not found`);
  try {
    await unflagVersion(db, user, rollout.versionId);
    return Response.json({ versionId: rollout.versionId, compromisedAt: null });
  } catch (err) {
    return errorResponse(err);
  }
}
