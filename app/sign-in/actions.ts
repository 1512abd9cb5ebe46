'use server';

import { APIError } from 'better-auth/api';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getAuth } from '@/app/_server/auth.ts';
import { safeRedirectPath, ACCOUNT_DEACTIVATED_MESSAGE } from '@/lib/auth/index.ts';

export interface SignInState {
  error: string | null;
  email: string;
}

// The web server refuses a server action whose Origin is not one this deployment is served on
// (lib/net/edge.ts); nextCookies() sets the session cookie. auth.api calls run better-auth's hooks,
// so this sign-in is throttled exactly as the HTTP endpoint's (lib/auth/password-attempts.ts).
export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get('email') ?? '')
    .trim()
    .slice(0, 320);
  const password = String(form.get('password') ?? '');
  if (!email || !password) return { error: 'Enter your email and password.', email };
  try {
    await (await getAuth()).api.signInEmail({ body: { email, password }, headers: await headers() });
  } catch (err) {
    if (err instanceof APIError && err.status === 'TOO_MANY_REQUESTS') return { error: err.body?.message ?? 'Too many sign-in attempts.', email };
    // Told only after the password was right (lib/auth/password-attempts.ts).
    if (err instanceof APIError && err.status === 'FORBIDDEN' && err.body?.code === 'ACCOUNT_DEACTIVATED') return { error: ACCOUNT_DEACTIVATED_MESSAGE, email };
    if (err instanceof APIError && (err.status === 'UNAUTHORIZED' || err.status === 'BAD_REQUEST')) {
      // One message for an unknown email and a wrong password: the form must not reveal which accounts exist.
      return { error: 'Wrong email or password.', email };
    }
    throw err;
  }
  redirect(safeRedirectPath(form.get('next')));
}

export async function signOutAction(): Promise<void> {
  await (await getAuth()).api.signOut({ headers: await headers() });
  redirect('/sign-in');
}
