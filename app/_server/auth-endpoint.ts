// better-auth's own endpoints (sign-in, sign-out, session). better-auth checks the Origin of
// every mutating request against the configured origins itself. Sign-in goes through the same
// throttle as the sign-in form, and no response body carries a session token.
import { withoutSessionTokens } from '@/lib/auth/auth-responses.ts';
import { tooManyAttemptsMessage } from '@/lib/auth/sign-in-throttle.ts';
import { getAuth } from './auth.ts';
import { beginSignIn, signInKeys } from './sign-in-throttle.ts';

const SIGN_IN_PATH = '/api/auth/sign-in/email';

async function signInEmail(request: Request): Promise<string> {
  const body: unknown = await request
    .clone()
    .json()
    .catch(() => null);
  const email = body && typeof body === 'object' && 'email' in body ? body.email : '';
  return typeof email === 'string' ? email.slice(0, 320) : '';
}

async function scrubbed(response: Response): Promise<Response> {
  if (!response.headers.get('content-type')?.includes('application/json')) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(withoutSessionTokens(body)), { status: response.status, statusText: response.statusText, headers });
}

/** better-auth's handler, with sign-in throttled and session tokens scrubbed from the bodies. */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const auth = await getAuth();
  if (request.method !== 'POST' || new URL(request.url).pathname !== SIGN_IN_PATH) return scrubbed(await auth.handler(request));
  const attempt = await beginSignIn(signInKeys(await signInEmail(request), request.headers));
  if (!attempt.allowed) {
    return Response.json(
      { error: 'too_many_attempts', message: tooManyAttemptsMessage(attempt.retryAfterSeconds), retryAfterSeconds: attempt.retryAfterSeconds },
      { status: 429, headers: { 'retry-after': String(attempt.retryAfterSeconds) } },
    );
  }
  const response = await auth.handler(request);
  if (response.ok) attempt.succeeded();
  return scrubbed(response);
}
