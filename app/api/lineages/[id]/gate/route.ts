import { requestDb } from '@/app/_server/db.ts';
import { badRequest, notFound } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { lineageIdSchema } from '@/lib/dashboard/lineages-params.ts';
import { lineageGatePatchSchema, schedulerConfigFrom, setLineageGate, UnknownLineageError } from '@/lib/scheduler/index.ts';
import { settings } from '@/lib/config/settings.ts';

// PATCH /api/lineages/:id/gate {probePolicy?, releaseRate?, minGroup?, timeoutReward?} (leads;
// audited): the lineage's release gate. A new probe policy re-evaluates the frontier from that
// policy's groups only; the answer is the frontier walk that followed.
export async function PATCH(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const user = await guardRoute(request, 'lineage.configure');
  if (user instanceof Response) return user;
  const id = lineageIdSchema.safeParse((await context.params).id);
  if (!id.success) return badRequest(id.error);
  const body: unknown = await request.json().catch(() => undefined);
  const patch = lineageGatePatchSchema.safeParse(body);
  if (!patch.success) return badRequest(patch.error);
  try {
    return Response.json({ result: await setLineageGate(await requestDb(), user, id.data, patch.data, schedulerConfigFrom(settings().scheduler)) });
  } catch (err) {
    if (err instanceof UnknownLineageError) return notFound(err.message);
    throw err;
  }
}
