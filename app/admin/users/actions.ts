'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { assertCan, ROLES, changeUserActive, changeUserRole, resetUserPassword, createUser, generatePassword, UserNotFoundError } from '@/lib/auth/index.ts';
import { RefusedError } from '@/lib/errors/index.ts';

export interface CreateUserState {
  error: string | null;
  created: { email: string; password: string } | null;
}

export interface ChangeRoleState {
  error: string | null;
  message: string | null;
}

const newUserSchema = z.object({
  email: z.string().trim().min(3).max(200),
  name: z.string().trim().min(1).max(100),
  role: z.enum(ROLES),
});

const roleChangeSchema = z.object({ userId: z.string().min(1).max(100), role: z.enum(ROLES) });

const activationSchema = z.object({ userId: z.string().min(1).max(100), active: z.enum(['true', 'false']).transform((v) => v === 'true') });

export interface ActivationState {
  error: string | null;
  message: string | null;
}

export async function createUserAction(_previous: CreateUserState, form: FormData): Promise<CreateUserState> {
  const admin = await requirePermission('users.manage');
  const input = newUserSchema.safeParse(Object.fromEntries(form));
  if (!input.success) return { error: 'Give an email, a name and a role.', created: null };
  // The admin never chooses the password: it is generated, shown once, and handed over.
  const password = generatePassword();
  const db = await requestDb();
  try {
    assertCan(admin, 'users.manage');
    const user = await createUser(db, { ...input.data, password }, admin);
    revalidatePath('/admin/users');
    return { error: null, created: { email: user.email, password } };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err), created: null };
  }
}

export async function changeRoleAction(_previous: ChangeRoleState, form: FormData): Promise<ChangeRoleState> {
  const admin = await requirePermission('users.manage');
  const input = roleChangeSchema.safeParse(Object.fromEntries(form));
  if (!input.success) return { error: 'Pick one of the roles.', message: null };
  try {
    const { before, after } = await changeUserRole(await requestDb(), admin, input.data.userId, input.data.role);
    revalidatePath('/admin/users');
    return { error: null, message: before.role === after.role ? `${after.email} stays ${after.role}` : `${after.email} is now ${after.role}` };
  } catch (err) {
    return refusal(err);
  }
}

/** Deactivates an account (signed out everywhere, no sign-in, no API tokens) or reactivates it. */
export async function setActiveAction(_previous: ActivationState, form: FormData): Promise<ActivationState> {
  const admin = await requirePermission('users.manage');
  const input = activationSchema.safeParse(Object.fromEntries(form));
  if (!input.success) return { error: 'Name an account and whether it is active.', message: null };
  try {
    const { after } = await changeUserActive(await requestDb(), admin, input.data.userId, input.data.active);
    revalidatePath('/admin/users');
    return { error: null, message: after.deactivatedAt ? `${after.email} is deactivated` : `${after.email} is active` };
  } catch (err) {
    return refusal(err);
  }
}

export interface ResetPasswordState {
  error: string | null;
  reset: { email: string; password: string } | null;
}

const resetSchema = z.object({ userId: z.string().min(1).max(100) });

export async function resetPasswordAction(_previous: ResetPasswordState, form: FormData): Promise<ResetPasswordState> {
  const admin = await requirePermission('users.manage');
  const input = resetSchema.safeParse(Object.fromEntries(form));
  if (!input.success) return { error: 'Name the account whose password to reset.', reset: null };
  try {
    return { error: null, reset: await resetUserPassword(await requestDb(), admin, input.data.userId) };
  } catch (err) {
    return { ...refusal(err), reset: null };
  }
}

// What the form shows for lib's refusals; anything else is a real failure.
function refusal(err: unknown): { error: string; message: null } {
  if (err instanceof UserNotFoundError) return { error: 'That account no longer exists.', message: null };
  if (err instanceof RefusedError) return { error: err.message, message: null };
  throw err;
}
