'use server';

import { APIError } from 'better-auth/api';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getAuth } from '@/app/_server/auth.ts';
import { safeNext } from './safe-next.ts';

export interface SignInState {
  error: string | null;
  email: string;
}

// Server actions are CSRF-safe by Next's own Origin check; nextCookies() sets the session cookie.
export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get('email') ?? '').trim();
  const password = String(form.get('password') ?? '');
  if (!email || !password) return { error: 'Enter your email and password.', email };
  try {
    await (await getAuth()).api.signInEmail({ body: { email, password }, headers: await headers() });
  } catch (err) {
    if (err instanceof APIError && (err.status === 'UNAUTHORIZED' || err.status === 'BAD_REQUEST')) {
      // One message for an unknown email and a wrong password: the form must not reveal which accounts exist.
      return { error: 'Wrong email or password.', email };
    }
    if (err instanceof APIError && err.status === 'TOO_MANY_REQUESTS') {
      return { error: 'Too many attempts. Wait a minute and try again.', email };
    }
    throw err;
  }
  redirect(safeNext(form.get('next')));
}

export async function signOutAction(): Promise<void> {
  await (await getAuth()).api.signOut({ headers: await headers() });
  redirect('/sign-in');
}
