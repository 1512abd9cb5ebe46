// GET /api/v1/trainer/batch?size=8[&seed=N]: environments to train on, from the lineages' frontiers.
import { route } from '@/app/_server/route.ts';
import { batchRequestSchema, sampleTrainingBatch } from '@/lib/scheduler/index.ts';

export const GET = route({ permission: 'trainer.api', query: batchRequestSchema }, async ({ db, query }) => ({
  environments: (await sampleTrainingBatch(db, query)).map((env) => ({ ...env, taskUrl: `/api/v1/trainer/environments/${env.versionId}/task` })),
}));
