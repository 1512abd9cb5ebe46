// Who is signed in, and the permission checks every page, server action and route handler
// makes on the server. Pages and actions: requirePermission. Route handlers: guardRoute.
import { headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { cache } from 'react';
import { decide, type SessionUser, can, isRole, type Permission } from '@/lib/auth/index.ts';
import { getAuth } from './auth.ts';
import { requestDb } from './db.ts';
import { PATH_HEADER } from './path-header.ts';
import { configuredOrigins } from './served-origins.ts';

export type { SessionUser } from '@/lib/auth/index.ts';

async function sessionFromHeaders(requestHeaders: Headers): Promise<SessionUser | null> {
  const session = await (await getAuth()).api.getSession({ headers: requestHeaders });
  if (!session) return null;
  const { id, email, name, role, deactivatedAt } = session.user;
  // A role outside the table grants nothing, nor does a deactivated account: signed out.
  return role && isRole(role) && !deactivatedAt ? { id, email, name, role } : null;
}

/** The signed-in user of this request, or null. One session lookup per request. */
export const currentUser = cache(async (): Promise<SessionUser | null> => sessionFromHeaders(await headers()));

/**
 * For server components and server actions. Signed out: redirects to /sign-in?next=<path>.
 * Signed in without the permission: forbidden(), which renders app/forbidden.tsx with 403.
 */
export async function requirePermission(permission: Permission): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) {
    const next = (await headers()).get(PATH_HEADER) ?? '/';
    redirect(`/sign-in?next=${encodeURIComponent(next)}`);
  }
  if (!can(user.role, permission)) forbidden();
  return user;
}

/**
 * For route handlers: the user, or the JSON error Response to return as is.
 * 401 without a session or valid `Authorization: Bearer <api token>`; 403 when the role lacks
 * the permission, or when a cookie-authenticated mutation's Origin is not this host.
 */
export async function guardRoute(request: Request, permission: Permission): Promise<SessionUser | Response> {
  const decision = await decide(await requestDb(), request, permission, () => sessionFromHeaders(request.headers), configuredOrigins());
  if (decision.ok) return decision.user;
  return Response.json({ error: decision.error, message: decision.message }, { status: decision.status });
}
