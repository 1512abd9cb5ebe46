// GET one residual file's diff (?attempt=N&path=…), fetched when the reviewer expands the file.
import { found, route } from '@/app/_server/route.ts';
import { getResidualFileDiff } from '@/lib/dashboard/index.ts';
import { diffQuerySchema, generationParamsSchema } from '@/lib/review/index.ts';

export const GET = route(
  { permission: 'dashboard.read', params: generationParamsSchema, query: diffQuerySchema },
  async ({ db, params: { id }, query: { attempt, path } }) => {
    const diff = found(await getResidualFileDiff(db, id, attempt, path), `no file ${path} in attempt ${attempt} of generation ${id}`);
    // A stored attempt's residual never changes.
    return Response.json(diff, { headers: { 'cache-control': 'private, max-age=3600' } });
  },
);
