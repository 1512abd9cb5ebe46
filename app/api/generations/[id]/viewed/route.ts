// PUT a reviewer's "viewed" mark on one residual file. Anyone who may read the dashboard keeps
// their own marks: they are reading progress, not a decision.
import { route } from '@/app/_server/route.ts';
import { setFileViewed, generationParamsSchema, viewedBodySchema } from '@/lib/review/index.ts';

export const PUT = route({ permission: 'dashboard.read', params: generationParamsSchema, body: viewedBodySchema }, async ({ db, user, params, body }) => {
  await setFileViewed(db, { user, generationId: params.id, ...body });
  return { ok: true };
});
