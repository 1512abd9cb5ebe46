// GET /api/v1/trainer/batch?size=8[&seed=N]: environments to train on, from the lineages' frontiers,
// and the frontiers left out (saturated or all-fail for the gating policy's newest version, or not served) with why.
import { route } from '@/app/_server/route.ts';
import { batchRequestSchema, sampleTrainingBatch } from '@/lib/scheduler/index.ts';

export const GET = route({ permission: 'trainer.api', query: batchRequestSchema }, async ({ db, query }) => {
  const batch = await sampleTrainingBatch(db, query);
  return { ...batch, environments: batch.environments.map((env) => ({ ...env, taskUrl: `/api/v1/trainer/environments/${env.versionId}/task` })) };
});
