import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { listEnvironments } from '@/lib/dashboard/environments.ts';
import { environmentSearchSchema } from '@/lib/dashboard/params.ts';

export async function GET(request: Request): Promise<Response> {
  const caller = await guardRoute(request, 'dashboard.read');
  if (caller instanceof Response) return caller;
  const query = environmentSearchSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return badRequest(query.error);
  const environments = await listEnvironments(await requestDb(), { nameContains: query.data.q || undefined });
  return Response.json({ environments });
}
