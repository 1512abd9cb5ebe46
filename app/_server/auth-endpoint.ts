// better-auth's own endpoints (sign-in, sign-out, session). better-auth checks the Origin of
// every mutating request against the configured origins itself, and its hooks throttle every
// password check (lib/auth/password-attempts.ts). Here: endpoints better-auth marks server-only
// (verify-password, a password oracle) are not served over HTTP, and no response body carries a
// session token.
import { withoutSessionTokens } from '@/lib/auth/index.ts';
import type { Auth } from '@/lib/auth/index.ts';
import { getAuth } from './auth.ts';

const AUTH_BASE_PATH = '/api/auth';

let serverOnly: Set<string> | undefined;
function serverOnlyPaths(auth: Auth): Set<string> {
  serverOnly ??= new Set(
    Object.values(auth.api as Record<string, { path?: string; options?: { metadata?: { scope?: string } } }>)
      .filter((endpoint) => endpoint.options?.metadata?.scope === 'server' && endpoint.path)
      .map((endpoint) => `${AUTH_BASE_PATH}${endpoint.path}`),
  );
  return serverOnly;
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

/** better-auth's handler, without its server-only endpoints, with session tokens scrubbed from the bodies. */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const auth = await getAuth();
  if (serverOnlyPaths(auth).has(new URL(request.url).pathname)) return Response.json({ error: 'not_found', message: 'no such endpoint' }, { status: 404 });
  return scrubbed(await auth.handler(request));
}
