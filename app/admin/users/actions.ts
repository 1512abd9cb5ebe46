'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { recordAudit } from '@/lib/audit/record.ts';
import { ROLES } from '@/lib/auth/roles.ts';
import { createUser, generatePassword, setPassword, setUserActive, setUserRole, UserNotFoundError } from '@/lib/auth/users.ts';

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
    const user = await createUser(db, { ...input.data, password });
    await recordAudit(db, {
      actor: admin,
      action: 'user.create',
      subjectType: 'user',
      subjectId: user.id,
      after: { email: user.email, name: user.name, role: user.role },
    });
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
  if (input.data.userId === admin.id && input.data.role !== 'admin') {
    return { error: 'You cannot take the admin role from yourself.', message: null };
  }
  const db = await requestDb();
  try {
    const { before, after } = await db.$transaction(async (tx) => {
      const change = await setUserRole(tx, input.data.userId, input.data.role);
      await recordAudit(tx, {
        actor: admin,
        action: 'user.role',
        subjectType: 'user',
        subjectId: input.data.userId,
        before: { email: change.before.email, role: change.before.role },
        after: { email: change.after.email, role: change.after.role },
      });
      return change;
    });
    revalidatePath('/admin/users');
    return { error: null, message: before.role === after.role ? `${after.email} stays ${after.role}` : `${after.email} is now ${after.role}` };
  } catch (err) {
    if (err instanceof UserNotFoundError) return { error: 'That account no longer exists.', message: null };
    throw err;
  }
}

/** Deactivates an account (signed out everywhere, no sign-in, no API tokens) or reactivates it. */
export async function setActiveAction(_previous: ActivationState, form: FormData): Promise<ActivationState> {
  const admin = await requirePermission('users.manage');
  const input = activationSchema.safeParse(Object.fromEntries(form));
  if (!input.success) return { error: 'Name an account and whether it is active.', message: null };
  const { userId, active } = input.data;
  if (userId === admin.id && !active) return { error: 'You cannot deactivate your own account.', message: null };
  const db = await requestDb();
  try {
    const { after } = await db.$transaction(async (tx) => {
      const change = await setUserActive(tx, userId, active);
      await recordAudit(tx, {
        actor: admin,
        action: active ? 'user.reactivate' : 'user.deactivate',
        subjectType: 'user',
        subjectId: userId,
        before: { email: change.before.email, deactivatedAt: change.before.deactivatedAt },
        after: { email: change.after.email, deactivatedAt: change.after.deactivatedAt },
      });
      return change;
    });
    revalidatePath('/admin/users');
    return { error: null, message: after.deactivatedAt ? `${after.email} is deactivated` : `${after.email} is active` };
  } catch (err) {
    if (err instanceof UserNotFoundError) return { error: 'That account no longer exists.', message: null };
    throw err;
  }
}

export interface ResetPasswordState {
  error: string | null;
  reset: { email: string; password: string } | null;
}

const resetSchema = z.object({ userId: z.string().min(1).max(100) });

/**
 * Resets an account's password to a generated one, shown once to the admin to hand over; the
 * account is signed out everywhere. The admin never chooses it, as when creating an account.
 */
export async function resetPasswordAction(_previous: ResetPasswordState, form: FormData): Promise<ResetPasswordState> {
  const admin = await requirePermission('users.manage');
  const input = resetSchema.safeParse(Object.fromEntries(form));
  if (!input.success) return { error: 'Name the account whose password to reset.', reset: null };
  const db = await requestDb();
  const user = await db.user.findUnique({ where: { id: input.data.userId }, select: { email: true } });
  if (!user) return { error: 'That account no longer exists.', reset: null };
  const password = generatePassword();
  await setPassword(db, user.email, password);
  await recordAudit(db, { actor: admin, action: 'user.reset-password', subjectType: 'user', subjectId: input.data.userId, after: { email: user.email, sessionsEnded: true } });
  return { error: null, reset: { email: user.email, password } };
}
