// GET /api/health: unauthenticated liveness, {ok: true}. Rendered per request but touching
// nothing, so the benchmark uses it as the trivial route other endpoints are compared against.
import { connection } from 'next/server';

export async function GET(): Promise<Response> {
  await connection();
  return Response.json({ ok: true });
}
