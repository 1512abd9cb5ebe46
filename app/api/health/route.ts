// GET /api/health: unauthenticated liveness, {ok: true}. Rendered per request but touching
// nothing, so the benchmark uses it as the trivial route other endpoints are compared against.
import { connection } from 'next/server';
import { publicRoute } from '@/app/_server/route.ts';

export const GET = publicRoute(async () => {
  await connection();
  return Response.json({ ok: true });
});
