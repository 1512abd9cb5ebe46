import { requestDb } from '@/app/_server/db.ts';
import { badRequest, notFound } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { getValidatorRunLog } from '@/lib/dashboard/environments.ts';
import { logPhaseSchema, validatorRunIdSchema } from '@/lib/dashboard/params.ts';

export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const caller = await guardRoute(request, 'dashboard.read');
  if (caller instanceof Response) return caller;
  const id = validatorRunIdSchema.safeParse((await context.params).id);
  if (!id.success) return badRequest(id.error);
  const phase = logPhaseSchema.safeParse(new URL(request.url).searchParams.get('phase'));
  if (!phase.success) return badRequest(phase.error);
  const log = await getValidatorRunLog(await requestDb(), id.data, phase.data);
  if (log === null) return notFound(`no validator run ${id.data}`);
  return new Response(log, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
