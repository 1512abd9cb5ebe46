// GET the files that differ between two attempts' candidates (?from=N&to=M), for the review page's attempt diff.
import { found, route } from '@/app/_server/route.ts';
import { compareAttempts } from '@/lib/dashboard/index.ts';
import { attemptPairQuerySchema, generationParamsSchema } from '@/lib/review/index.ts';

export const GET = route(
  { permission: 'dashboard.read', params: generationParamsSchema, query: attemptPairQuerySchema },
  async ({ db, params: { id }, query: { from, to } }) => {
    const comparison = found(await compareAttempts(db, id, from, to), `attempts ${from} and ${to} of generation ${id} do not both have a residual`);
    // Stored attempts' residuals never change.
    return Response.json(comparison, { headers: { 'cache-control': 'private, max-age=3600' } });
  },
);
