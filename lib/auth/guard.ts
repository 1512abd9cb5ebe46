// The server-side check every route handler goes through, kept free of Next.js so it can be
// tested against a real database: who is asking (a bearer API token or a session cookie),
// whether a cookie-carried mutation comes from our own origin, and whether the role may do it.
import type { Db } from '../db/index.ts';
import { originAllowed, type ServedOrigins } from '../net/index.ts';
import { verifyApiToken } from './api-tokens.ts';
import { can, type Permission, type Role } from './roles.ts';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  token?: { id: string; policies: string[] }; // present when the caller presented an API token
}

export type GuardDecision =
  | { ok: true; user: SessionUser; via: 'token' | 'session' }
  | { ok: false; status: 401 | 403; error: 'unauthenticated' | 'invalid_token' | 'cross_origin' | 'forbidden'; message: string };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isMutation(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

export function bearerToken(headers: Headers): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '');
  return match?.[1] ?? null;
}

export async function decide(
  db: Db,
  request: Request,
  permission: Permission,
  sessionUser: () => Promise<SessionUser | null>,
  served: ServedOrigins,
): Promise<GuardDecision> {
  const token = bearerToken(request.headers);
  let user: SessionUser | null;
  let via: 'token' | 'session';
  if (token) {
    // A token is sent deliberately by a program, never attached by a browser: no CSRF risk.
    user = await verifyApiToken(db, token);
    via = 'token';
    if (!user) return { ok: false, status: 401, error: 'invalid_token', message: 'the API token is unknown or revoked' };
  } else {
    user = await sessionUser();
    via = 'session';
    if (!user) return { ok: false, status: 401, error: 'unauthenticated', message: 'sign in first' };
    // Browsers send Origin on every cross-site POST, so a missing one is refused too.
    if (isMutation(request.method) && !originAllowed(request.headers, served)) {
      return { ok: false, status: 403, error: 'cross_origin', message: 'the Origin header is not an origin this server is served on' };
    }
  }
  if (!can(user.role, permission)) {
    return { ok: false, status: 403, error: 'forbidden', message: `the ${user.role} role may not ${permission}` };
  }
  return { ok: true, user, via };
}
