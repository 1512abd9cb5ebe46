// How every error answers over HTTP: a domain error (lib/errors) with its status and its own
// message, a schema failure as a 400 naming each field, an unavailable service as a 503 with its
// code only, anything else as a generic 500. Neither of the last two says anything of the server's
// insides to the client; both go to the process logger (lib/log) with the error itself.
import { ZodError } from 'zod';
import { ConflictError, DomainError, ForbiddenError, GoneError, InvalidInputError, NotFoundError, RefusedError, UnavailableError } from '@/lib/errors/index.ts';
import { logger } from '@/lib/log/index.ts';

const STATUS: [new (...args: never[]) => DomainError, number][] = [
  [InvalidInputError, 400],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [GoneError, 410],
  [RefusedError, 422],
  [UnavailableError, 503],
];

export function statusOf(error: DomainError): number {
  return STATUS.find(([type]) => error instanceof type)?.[1] ?? 500;
}

export function badRequest(error: ZodError): Response {
  const issues = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  const message = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
  return Response.json({ error: 'bad_request', message, issues }, { status: 400 });
}

export function invalidJson(): Response {
  return Response.json({ error: 'bad_request', message: 'the request body is not valid JSON' }, { status: 400 });
}

export function errorResponse(error: unknown): Response {
  if (error instanceof ZodError) return badRequest(error);
  if (error instanceof UnavailableError) {
    logger().error('a request needed a service that is unavailable', { error, code: error.code });
    return Response.json({ error: error.code, message: 'A service the server needs is unavailable; the failure is logged.' }, { status: 503 });
  }
  if (error instanceof DomainError) {
    return Response.json({ error: error.code, message: error.message, ...error.details }, { status: statusOf(error) });
  }
  logger().error('a request failed with an unexpected error', { error });
  return Response.json({ error: 'internal', message: 'The server failed to answer this request; the failure is logged.' }, { status: 500 });
}
