// How the review domain's failures answer over HTTP: the client shows `message` as is.
import { ConflictError, DecisionRefusedError, GenerationNotFoundError } from '@/lib/review/index.ts';

export function reviewErrorResponse(error: unknown): Response {
  if (error instanceof ConflictError) {
    return Response.json({ error: 'conflict', message: error.message, current: error.current, lastChange: error.lastChange }, { status: 409 });
  }
  if (error instanceof DecisionRefusedError || error instanceof RangeError) {
    return Response.json({ error: 'refused', message: error.message }, { status: 422 });
  }
  if (error instanceof GenerationNotFoundError) return Response.json({ error: 'not_found', message: error.message }, { status: 404 });
  throw error;
}
