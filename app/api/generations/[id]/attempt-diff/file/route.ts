// GET one file's diff from one attempt's candidate to another's (?from=N&to=M&path=…), fetched when the reviewer expands it.
import { found, route } from '@/app/_server/route.ts';
import { attemptFileDiff } from '@/lib/dashboard/index.ts';
import { attemptFileDiffQuerySchema, generationParamsSchema } from '@/lib/review/index.ts';

export const GET = route(
  { permission: 'dashboard.read', params: generationParamsSchema, query: attemptFileDiffQuerySchema },
  async ({ db, params: { id }, query: { from, to, path } }) => {
    const diff = found(await attemptFileDiff(db, id, from, to, path), `no change to ${path} between attempts ${from} and ${to} of generation ${id}`);
    // Stored attempts' residuals never change.
    return Response.json(diff, { headers: { 'cache-control': 'private, max-age=3600' } });
  },
);
