// An admin's changes to accounts: a role or an account's activation, each checked against the
// actor's permission and the rules that keep an admin from locking themselves out, and committed
// with its audit entry.
import { recordAudit } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { RefusedError } from '../errors/index.ts';
import { assertCan, type Actor } from './actor.ts';
import type { Role } from './roles.ts';
import { generatePassword, setPassword, setUserActive, setUserRole, UserNotFoundError, type UserSummary } from './users.ts';

export interface UserChange {
  before: UserSummary;
  after: UserSummary;
}

export async function changeUserRole(db: Db, actor: Actor, userId: string, role: Role): Promise<UserChange> {
  assertCan(actor, 'users.manage');
  if (userId === actor.id && role !== 'admin') throw new RefusedError('You cannot take the admin role from yourself.');
  return db.$transaction(async (tx) => {
    const change = await setUserRole(tx, userId, role);
    await recordAudit(tx, {
      actor,
      action: 'user.role',
      subjectType: 'user',
      subjectId: userId,
      before: { email: change.before.email, role: change.before.role },
      after: { email: change.after.email, role: change.after.role },
    });
    return change;
  });
}

export async function changeUserActive(db: Db, actor: Actor, userId: string, active: boolean): Promise<UserChange> {
  assertCan(actor, 'users.manage');
  if (userId === actor.id && !active) throw new RefusedError('You cannot deactivate your own account.');
  return db.$transaction(async (tx) => {
    const change = await setUserActive(tx, userId, active);
    await recordAudit(tx, {
      actor,
      action: active ? 'user.reactivate' : 'user.deactivate',
      subjectType: 'user',
      subjectId: userId,
      before: { email: change.before.email, deactivatedAt: change.before.deactivatedAt },
      after: { email: change.after.email, deactivatedAt: change.after.deactivatedAt },
    });
    return change;
  });
}

/**
 * Resets an account's password to a generated one for the admin to hand over (shown once); the
 * account is signed out everywhere. The admin never chooses it, as when creating an account.
 * better-auth writes the new hash through its own adapter, so the audit entry follows it rather
 * than sharing its transaction.
 */
export async function resetUserPassword(db: Db, actor: Actor, userId: string): Promise<{ email: string; password: string }> {
  assertCan(actor, 'users.manage');
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
  if (!user) throw new UserNotFoundError(`no user ${userId}`);
  const password = generatePassword();
  await setPassword(db, user.email, password);
  await recordAudit(db, { actor, action: 'user.reset-password', subjectType: 'user', subjectId: userId, after: { email: user.email, sessionsEnded: true } });
  return { email: user.email, password };
}
