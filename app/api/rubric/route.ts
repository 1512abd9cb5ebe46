// GET: every rubric key with its versions and the one in force.
import { requestDb } from '@/app/_server/db.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { listRubricCatalogue } from '@/lib/rubric/index.ts';

export async function GET(request: Request): Promise<Response> {
  const user = await guardRoute(request, 'dashboard.read');
  if (user instanceof Response) return user;
  return Response.json({ items: await listRubricCatalogue(await requestDb()) });
}
