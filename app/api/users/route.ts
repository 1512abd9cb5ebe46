// The accounts as JSON, for admins (and their API tokens).
import { requestDb } from '@/app/_server/db.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { listUsers } from '@/lib/auth/users.ts';

export async function GET(request: Request): Promise<Response> {
  const caller = await guardRoute(request, 'users.manage');
  if (caller instanceof Response) return caller;
  return Response.json({ users: await listUsers(await requestDb()) });
}
