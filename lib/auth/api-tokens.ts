// Machine credentials. The plaintext is shown once at creation; only its sha256 is stored,
// so a leaked database does not leak usable tokens.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { isRole, type Role } from './roles.ts';

const TOKEN_PREFIX = 'envolve_';
// lastUsedAt is kept to the minute: a trainer calls many times a second, and a write per call
// would serialise its requests on the database for a field people read as "used today?".
export const LAST_USED_RESOLUTION_MS = 60_000;

export interface TokenUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createApiToken(
  db: Db,
  userId: string,
  name: string,
): Promise<{ id: string; name: string; token: string }> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await db.apiToken.create({ data: { name, userId, tokenHash: hashApiToken(token) } });
  return { id: row.id, name: row.name, token };
}

/** The token's user, or null when the token is unknown, revoked, or its user has no valid role. */
export async function verifyApiToken(db: Db, token: string): Promise<TokenUser | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const row = await db.apiToken.findUnique({ where: { tokenHash: hashApiToken(token) }, include: { user: true } });
  if (!row || row.revokedAt || !isRole(row.user.role)) return null;
  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { id: row.user.id, email: row.user.email, name: row.user.name, role: row.user.role };
}

export async function revokeApiToken(db: Db, id: string): Promise<void> {
  await db.apiToken.update({ where: { id }, data: { revokedAt: new Date() } });
}
