// Accounts, framework-free: the CLI, `envolve setup`, the admin page and tests share these.
// Passwords go through better-auth's own hasher and account records, never ours.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { forgetVerifiedTokens } from './api-tokens.ts';
import { createAuth, type Auth } from './better-auth.ts';
import { isRole, type Role } from './roles.ts';

export { createApiToken, listApiTokens, revokeApiToken, verifyApiToken, type ApiTokenSummary, type TokenUser } from './api-tokens.ts';

export interface UserSummary {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: Date;
}

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

export async function createUser(db: Db, input: NewUser): Promise<UserSummary> {
  if (!isRole(input.role)) throw new Error(`unknown role ${String(input.role)}`);
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new Error(`not an email address: ${input.email}`);
  const name = input.name.trim();
  if (!name) throw new Error('a user needs a name');
  const context = await accountAuth(db).$context;
  const { minPasswordLength, maxPasswordLength } = context.password.config;
  if (input.password.length < minPasswordLength) throw new Error(`the password needs at least ${minPasswordLength} characters`);
  if (input.password.length > maxPasswordLength) throw new Error(`the password may have at most ${maxPasswordLength} characters`);
  if (await context.internalAdapter.findUserByEmail(email)) throw new Error(`a user with email ${email} already exists`);

  // The same steps as better-auth's sign-up endpoint, which stays disabled for visitors.
  const hash = await context.password.hash(input.password);
  const created = await context.internalAdapter.createUser(
    { email, name, role: input.role, emailVerified: false },
    { method: 'email-password' },
  );
  await context.internalAdapter.linkAccount({ userId: created.id, providerId: 'credential', accountId: created.id, password: hash });
  return toSummary(await db.user.findUniqueOrThrow({ where: { id: created.id } }));
}

/** Sets a new password for an existing account, hashed by better-auth like any other. */
export async function setPassword(db: Db, email: string, password: string): Promise<UserSummary> {
  const context = await accountAuth(db).$context;
  const { minPasswordLength, maxPasswordLength } = context.password.config;
  if (password.length < minPasswordLength) throw new Error(`the password needs at least ${minPasswordLength} characters`);
  if (password.length > maxPasswordLength) throw new Error(`the password may have at most ${maxPasswordLength} characters`);
  const user = await findUserByEmail(db, email);
  if (!user) throw new Error(`no user with email ${email.trim().toLowerCase()}`);
  await context.internalAdapter.updatePassword(user.id, await context.password.hash(password));
  return user;
}

/** Accepts a transaction client, so the change and its audit entry commit together. */
export async function setUserRole(db: Pick<Db, 'user'>, userId: string, role: Role): Promise<{ before: UserSummary; after: UserSummary }> {
  if (!isRole(role)) throw new Error(`unknown role ${String(role)}`);
  const before = toSummary(await db.user.findUniqueOrThrow({ where: { id: userId } }));
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

function toSummary(row: { id: string; email: string; name: string; role: string; createdAt: Date }): UserSummary {
  if (!isRole(row.role)) throw new Error(`user ${row.email} has an unknown role ${row.role}`);
  return { id: row.id, email: row.email, name: row.name, role: row.role, createdAt: row.createdAt };
}
