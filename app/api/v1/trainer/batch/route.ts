import { z } from 'zod';
import { requestDb } from '@/app/_server/db.ts';
import { badRequest } from '@/app/_server/http.ts';
import { guardRoute } from '@/app/_server/session.ts';
import { sampleTrainingBatch } from '@/lib/scheduler/index.ts';

const query = z.object({
  size: z.coerce.number().int().min(1).max(1024).default(8),
  seed: z.coerce.number().int().min(0).max(2 ** 32 - 1).optional(),
});

// GET /api/v1/trainer/batch?size=8[&seed=N]: environments to train on, from the lineages' frontiers.
export async function GET(request: Request): Promise<Response> {
  const caller = await guardRoute(request, 'trainer.api');
  if (caller instanceof Response) return caller;
  const parsed = query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return badRequest(parsed.error);
  const batch = await sampleTrainingBatch(await requestDb(), parsed.data);
  const environments = batch.map((env) => ({ ...env, taskUrl: `/api/v1/trainer/environments/${env.versionId}/task` }));
  return Response.json({ environments });
}
