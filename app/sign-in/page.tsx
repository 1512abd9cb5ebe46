import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { currentUser } from '@/app/_server/session.ts';
import { safeRedirectPath } from '@/lib/auth/index.ts';
import { SignInForm } from './sign-in-form.tsx';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).next;
  const next = safeRedirectPath(Array.isArray(raw) ? raw[0] : raw);
  if (await currentUser()) redirect(next);
  return (
    <div className="mx-auto mt-12 w-full max-w-sm rounded-lg border border-zinc-200 bg-white p-6 shadow-sm">
      <h1 className="text-lg font-semibold tracking-tight">Sign in to Envolve</h1>
      <p className="mb-5 mt-1 text-sm text-zinc-500">Accounts are created by an admin.</p>
      <SignInForm next={next} />
    </div>
  );
}
