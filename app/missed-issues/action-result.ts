// What the missed-issue and rubric server actions return to their forms, and how lib's errors
// become it: field errors for bad input, a message for a refusal or a conflict. An unavailable
// service's message is the operator's (lib/errors), so it is thrown on like any other failure.
import { ZodError } from 'zod';
import { DomainError, UnavailableError } from '@/lib/errors/index.ts';

// `href` is the thing the outcome is about: the new item, or the earlier one a copy was refused for.
export type ActionResult =
  { ok: true; message: string; href?: string; id?: string } | { ok: false; message: string; fieldErrors: Record<string, string>; href?: string };

export const IDLE: ActionResult | null = null;

export function failure(err: unknown): ActionResult {
  if (err instanceof ZodError) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of err.issues) fieldErrors[String(issue.path[0] ?? 'form')] ??= issue.message;
    return { ok: false, message: 'Please correct the highlighted fields.', fieldErrors };
  }
  if (err instanceof DomainError && !(err instanceof UnavailableError)) return { ok: false, message: err.message, fieldErrors: {} };
  throw err;
}

export function text(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === 'string' ? value : undefined;
}
