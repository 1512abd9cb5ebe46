// GET ?path=: the content of a file the agent changed in this trajectory.
import { z } from 'zod';
import { requestDb } from '@/app/_server/db.ts';
import { badRequest, notFound } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { changedFileContent, rolloutIdSchema } from '@/lib/trajectories/detail.ts';

const querySchema = z.object({ id: rolloutIdSchema, path: z.string().min(1, 'path is required').max(1000) });

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const caller = await guardRoute(request, 'trajectories.read');
  if (caller instanceof Response) return caller;
  const parsed = querySchema.safeParse({ id: (await params).id, path: new URL(request.url).searchParams.get('path') ?? '' });
  if (!parsed.success) return badRequest(parsed.error);
  const file = await changedFileContent(await requestDb(), parsed.data.id, parsed.data.path);
  if (!file) return notFound(`trajectory ${parsed.data.id} did not change ${parsed.data.path}`);
  return Response.json(file);
}
