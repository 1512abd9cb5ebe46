import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { listLineages } from '@/lib/dashboard/lineages.ts';
import { lineageListSchema } from '@/lib/dashboard/lineages-params.ts';

export async function GET(request: Request): Promise<Response> {
  const caller = await guardRoute(request, 'dashboard.read');
  if (caller instanceof Response) return caller;
  const query = lineageListSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return badRequest(query.error);
  const page = await listLineages(await requestDb(), { ...query.data, status: query.data.status || undefined });
  return Response.json(page);
}
