// GET: the whole output of one turn (the page shows a preview), as JSON.
import { z } from 'zod';
import { requestDb } from '@/app/_server/db.ts';
import { badRequest, notFound } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { rolloutIdSchema, stepOutput } from '@/lib/trajectories/detail.ts';

const paramsSchema = z.object({ id: rolloutIdSchema, stepId: z.coerce.number().int().min(1).max(1_000_000) });

export async function GET(request: Request, { params }: { params: Promise<{ id: string; stepId: string }> }): Promise<Response> {
  const caller = await guardRoute(request, 'trajectories.read');
  if (caller instanceof Response) return caller;
  const parsed = paramsSchema.safeParse(await params);
  if (!parsed.success) return badRequest(parsed.error);
  const output = await stepOutput(await requestDb(), parsed.data.id, parsed.data.stepId);
  if (output === null) return notFound(`trajectory ${parsed.data.id} has no step ${parsed.data.stepId}`);
  return Response.json({ output });
}
