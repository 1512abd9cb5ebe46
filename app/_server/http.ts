// JSON error responses shared by the route handlers.
import type { ZodError } from 'zod';

export function badRequest(error: ZodError): Response {
  const issues = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  const message = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
  return Response.json({ error: 'bad_request', message, issues }, { status: 400 });
}

export function notFound(message: string): Response {
  return Response.json({ error: 'not_found', message }, { status: 404 });
}
