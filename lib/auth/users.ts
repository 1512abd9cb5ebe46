// Accounts, framework-free: the CLI, `envolve setup`, the admin page and tests share these.
// Passwords go through better-auth's own hasher and account records, never ours.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { forgetVerifiedTokens } from './api-tokens.ts';
import { createAuth, type Auth } from './better-auth.ts';
import { passwordProblem } from './password-policy.ts';
import { clearSignInCounts } from './sign-in-throttle.ts';
import { isRole, type Role } from './roles.ts';
import { recordAudit, type AuditActor } from '../audit/index.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors/index.ts';

export { createApiToken, listApiTokens, revokeApiToken, verifyApiToken, type ApiTokenSummary, type TokenUser } from './api-tokens.ts';

export interface UserSummary {
  id: string;
  email: string;
  name: string;
  role: Role;
  deactivatedAt: Date | null;
  createdAt: Date;
}

export class UserNotFoundError extends NotFoundError {}

export interface NewUser {
  email: string;
  name: string;
  role: Role;
  password: string;
}

// Creating an account signs nothing and serves no request, so this private instance's
// secret and base URL are never used; the URL only keeps better-auth from warning.
const hashers = new WeakMap<Db, Auth>();
function accountAuth(db: Db): Auth {
  let auth = hashers.get(db);
  if (!auth) {
    auth = createAuth(db, { secret: randomBytes(32).toString('base64url'), baseURL: 'http://localhost' });
    hashers.set(db, auth);
  }
  return auth;
}

/** A password for accounts made without one: 20 URL-safe characters, 120 bits. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/**
 * Creates an account: the user row and its credential account, as better-auth's sign-up endpoint
 * (disabled for visitors) would, with the password hashed by better-auth's hasher. Made by an
 * admin (`createdBy`), the user and its audit entry commit together; the CLI's setup passes none.
 */
export async function createUser(db: Db, input: NewUser, createdBy?: AuditActor): Promise<UserSummary> {
  if (!isRole(input.role)) throw new InvalidInputError(`unknown role ${String(input.role)}`);
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new InvalidInputError(`not an email address: ${input.email}`);
  const name = input.name.trim();
  if (!name) throw new InvalidInputError('a user needs a name');
  const problem = passwordProblem(input.password, [email, name]);
  if (problem) throw new InvalidInputError(problem);
  const hash = await (await accountAuth(db).$context).password.hash(input.password);
  return db.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { email }, select: { id: true } })) throw new ConflictError(`a user with email ${email} already exists`);
    const id = randomBytes(24).toString('base64url');
    const row = await tx.user.create({ data: { id, email, name, role: input.role, emailVerified: false } });
    await tx.account.create({ data: { id: randomBytes(24).toString('base64url'), userId: id, providerId: 'credential', accountId: id, password: hash } });
    if (createdBy)
      await recordAudit(tx, { actor: createdBy, action: 'user.create', subjectType: 'user', subjectId: id, after: { email, name, role: input.role } });
    return toSummary(row);
  });
}

/**
 * Sets a new password for an existing account (an admin's reset), hashed by better-auth like any
 * other, ends every session of the account (whoever knew the old password is signed out) and
 * lifts every sign-in lockout of it, so the new password works at once from anywhere.
 */
export async function setPassword(db: Db, email: string, password: string): Promise<UserSummary> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new UserNotFoundError(`no user with email ${email.trim().toLowerCase()}`);
  const problem = passwordProblem(password, [user.email, user.name]);
  if (problem) throw new Error(problem);
  const context = await accountAuth(db).$context;
  await context.internalAdapter.updatePassword(user.id, await context.password.hash(password));
  await db.session.deleteMany({ where: { userId: user.id } });
  await clearSignInCounts(db, user.email);
  return user;
}

/**
 * Deactivates an account (or reactivates it): a deactivated account cannot sign in, loses its
 * sessions at once, and its API tokens are revoked, so reactivating it revives none of them; its
 * history (reviews, labels, audit entries) keeps its id and email. Accepts a transaction client,
 * for the audit entry.
 */
export async function setUserActive(
  db: Pick<Db, 'user' | 'session' | 'apiToken'>,
  userId: string,
  active: boolean,
): Promise<{ before: UserSummary; after: UserSummary }> {
  const row = await db.user.findUnique({ where: { id: userId } });
  if (!row) throw new UserNotFoundError(`no user with id ${userId}`);
  const before = toSummary(row);
  const after = toSummary(await db.user.update({ where: { id: userId }, data: { deactivatedAt: active ? null : (row.deactivatedAt ?? new Date()) } }));
  if (!active) {
    await db.session.deleteMany({ where: { userId } });
    await db.apiToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
  }
  forgetVerifiedTokens();
  return { before, after };
}

/** Accepts a transaction client, so the change and its audit entry commit together. */
export async function setUserRole(db: Pick<Db, 'user'>, userId: string, role: Role): Promise<{ before: UserSummary; after: UserSummary }> {
  if (!isRole(role)) throw new Error(`unknown role ${String(role)}`);
  const row = await db.user.findUnique({ where: { id: userId } });
  if (!row) throw new UserNotFoundError(`no user with id ${userId}`);
  const before = toSummary(row);
  const after = toSummary(await db.user.update({ where: { id: userId }, data: { role } }));
  forgetVerifiedTokens();
  return { before, after };
}

export async function listUsers(db: Db): Promise<UserSummary[]> {
  return (await db.user.findMany({ orderBy: [{ createdAt: 'asc' }, { email: 'asc' }] })).map(toSummary);
}

export async function findUserByEmail(db: Db, email: string): Promise<UserSummary | null> {
  const row = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  return row ? toSummary(row) : null;
}

export async function countUsers(db: Db): Promise<number> {
  return db.user.count();
}

function toSummary(row: { id: string; email: string; name: string; role: string; deactivatedAt: Date | null; createdAt: Date }): UserSummary {
  if (!isRole(row.role)) throw new Error(`user ${row.email} has an unknown role ${row.role}`);
  return { id: row.id, email: row.email, name: row.name, role: row.role, deactivatedAt: row.deactivatedAt, createdAt: row.createdAt };
}
