'use server';
// The /tokens page's server actions: each checks the permission on the server, and lib checks
// it again, keeps every token to its owner and writes the audit entry.
import { revalidatePath } from 'next/cache';
import { ZodError } from 'zod';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { createOwnApiToken, revokeOwnApiToken } from '@/lib/auth/index.ts';
import { settings } from '@/lib/config/index.ts';
import { DomainError } from '@/lib/errors/index.ts';
import { checkTokenPolicies, schedulerConfigFrom, withdrawTokenReleases } from '@/lib/scheduler/index.ts';

export interface CreateTokenState {
  error: string | null;
  created: { name: string; token: string; policies: string[] } | null;
}

export interface RevokeTokenState {
  error: string | null;
}

function problem(err: unknown): string {
  if (err instanceof ZodError) return err.issues[0]?.message ?? 'Give the token a name.';
  if (err instanceof DomainError) return err.message;
  throw err;
}

export async function createTokenAction(_previous: CreateTokenState, form: FormData): Promise<CreateTokenState> {
  const user = await requirePermission('api-tokens.own');
  try {
    const policies = checkTokenPolicies(String(form.get('policies') ?? ''));
    const { name, token } = await createOwnApiToken(await requestDb(), user, String(form.get('name') ?? ''), policies);
    revalidatePath('/tokens');
    return { error: null, created: { name, token, policies } };
  } catch (err) {
    return { error: problem(err), created: null };
  }
}

// With `withdraw` checked (the button listed the releases and asked), the token's groups and what
// they released are withdrawn too; revokeOwnApiToken first proves the token is the caller's.
export async function revokeTokenAction(tokenId: string, _previous: RevokeTokenState, form: FormData): Promise<RevokeTokenState> {
  const user = await requirePermission('api-tokens.own');
  try {
    const db = await requestDb();
    await revokeOwnApiToken(db, user, tokenId);
    if (form.get('withdraw') === 'on') await withdrawTokenReleases(db, user, tokenId, schedulerConfigFrom(settings().scheduler));
    revalidatePath('/tokens');
    return { error: null };
  } catch (err) {
    return { error: problem(err) };
  }
}
