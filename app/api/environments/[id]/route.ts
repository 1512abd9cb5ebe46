import { requestDb } from '@/app/_server/db.ts';
import { badRequest, notFound } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { getEnvironment } from '@/lib/dashboard/environments.ts';
import { environmentIdSchema } from '@/lib/dashboard/params.ts';

export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  const caller = await guardRoute(request, 'dashboard.read');
  if (caller instanceof Response) return caller;
  const id = environmentIdSchema.safeParse((await context.params).id);
  if (!id.success) return badRequest(id.error);
  const environment = await getEnvironment(await requestDb(), id.data);
  if (!environment) return notFound(`no environment version ${id.data}`);
  return Response.json({ environment });
}
