import { requestDb } from '@/app/_server/db.ts';
import { badRequest, notFound } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { getLineageTree } from '@/lib/dashboard/lineages.ts';
import { lineageIdSchema, policyViewSchema } from '@/lib/dashboard/lineages-params.ts';
import { schedulerConfigFrom } from '@/lib/scheduler/config.ts';
import { settings } from '@/lib/config/settings.ts';

// GET ?policy=NAME: probe pass rates of that policy (default: the lineage's probe policy).

export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const caller = await guardRoute(request, 'dashboard.read');
  if (caller instanceof Response) return caller;
  const id = lineageIdSchema.safeParse((await context.params).id);
  if (!id.success) return badRequest(id.error);
  const policy = policyViewSchema.safeParse(new URL(request.url).searchParams.get('policy') ?? undefined);
  if (!policy.success) return badRequest(policy.error);
  const tree = await getLineageTree(await requestDb(), id.data, { config: schedulerConfigFrom(settings().scheduler), policy: policy.data });
  if (!tree) return notFound(`no lineage ${id.data}`);
  return Response.json({ tree });
}
