'use server';

import { APIError } from 'better-auth/api';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getAuth } from '@/app/_server/auth.ts';
import { beginSignIn, signInKeys } from '@/app/_server/sign-in-throttle.ts';
import { tooManyAttemptsMessage } from '@/lib/auth/sign-in-throttle.ts';
import { safeRedirectPath } from '@/lib/auth/safe-redirect.ts';

export interface SignInState {
  error: string | null;
  email: string;
}

// Server actions are CSRF-safe by Next's own Origin check; nextCookies() sets the session cookie.
// auth.api calls from the server skip better-auth's HTTP layer, so the throttle is applied here
// exactly as in app/api/auth/[...all]/route.ts.
export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get('email') ?? '')
    .trim()
    .slice(0, 320);
  const password = String(form.get('password') ?? '');
  if (!email || !password) return { error: 'Enter your email and password.', email };
  const requestHeaders = await headers();
  const attempt = await beginSignIn(signInKeys(email, requestHeaders));
  if (!attempt.allowed) return { error: tooManyAttemptsMessage(attempt.retryAfterSeconds), email };
  try {
    await (await getAuth()).api.signInEmail({ body: { email, password }, headers: requestHeaders });
  } catch (err) {
    if (err instanceof APIError && (err.status === 'UNAUTHORIZED' || err.status === 'BAD_REQUEST')) {
      // One message for an unknown email and a wrong password: the form must not reveal which accounts exist.
      return { error: 'Wrong email or password.', email };
    }
    throw err;
  }
  attempt.succeeded();
  redirect(safeRedirectPath(form.get('next')));
}

export async function signOutAction(): Promise<void> {
  await (await getAuth()).api.signOut({ headers: await headers() });
  redirect('/sign-in');
}
