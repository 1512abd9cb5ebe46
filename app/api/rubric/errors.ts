// lib's errors as JSON responses for the rubric and missed-issue route handlers.
import { ZodError } from 'zod';
import { badRequest, notFound } from '@/app/_server/http.ts';
import { ConflictError, ForbiddenError } from '@/lib/missed-issues/index.ts';

export function errorResponse(err: unknown): Response {
  if (err instanceof ZodError) return badRequest(err);
  if (err instanceof ForbiddenError) return Response.json({ error: 'forbidden', message: err.message }, { status: 403 });
  if (err instanceof ConflictError) return Response.json({ error: 'conflict', message: err.message }, { status: 409 });
  if (err instanceof Error && err.name.endsWith('NotFoundError')) return notFound(err.message);
  throw err;
}
