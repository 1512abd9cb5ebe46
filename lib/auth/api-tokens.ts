// Machine credentials. The plaintext is shown once at creation; only its sha256 is stored,
// so a leaked database does not leak usable tokens.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { InvalidInputError } from '../errors/index.ts';
import { isRole, type Role } from './roles.ts';

const TOKEN_PREFIX = 'envolve_';
// lastUsedAt is kept to the minute: a trainer calls many times a second, and a write per call
// would serialise its requests on the database for a field people read as "used today?".
export const LAST_USED_RESOLUTION_MS = 60_000;

// The policy a token reports groups for when its maker names none.
export const DEFAULT_TOKEN_POLICY = 'trainer';
// A token's policies are stored comma-separated, so a name is a plain word (letters, digits, . _ -).
const POLICY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** The policy names `NAME[,NAME]` lists (blank: the default), each a plain word, without repeats. */
export function parseTokenPolicies(list: string | readonly string[] | undefined): string[] {
  const names = (typeof list === 'string' ? list.split(',') : (list ?? [])).map((n) => n.trim()).filter((n) => n !== '');
  if (names.length === 0) return [DEFAULT_TOKEN_POLICY];
  const bad = names.find((n) => !POLICY_NAME.test(n));
  if (bad !== undefined) throw new InvalidInputError(`policy name "${bad}": use letters, digits, ".", "_" and "-" (at most 100), names separated by commas`);
  return [...new Set(names)];
}

export interface TokenUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  token: { id: string; policies: string[] }; // the token the caller presented and the policies it may report for
}

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new token for the user, reporting for `policies` (parsed with parseTokenPolicies; `trainer` when none). */
export async function createApiToken(
  db: Pick<Db, 'apiToken'>,
  userId: string,
  name: string,
  policies?: string | readonly string[],
): Promise<{ id: string; name: string; token: string; policies: string[] }> {
  const names = parseTokenPolicies(policies);
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await db.apiToken.create({ data: { name, userId, tokenHash: hashApiToken(token), policies: names.join(',') } });
  return { id: row.id, name: row.name, token, policies: names };
}

export const tokenPoliciesOf = (stored: string): string[] => stored.split(',').filter((n) => n !== '');

// A trainer asks many times a second with the same token, so a verified token is remembered for
// a second per process: a revocation or role change in this process takes effect at once (it
// forgets them all), one made by another process within a second. Only verified tokens are kept,
// so unknown tokens cannot grow the map beyond the tokens that exist. The map lives on globalThis:
// Next.js bundles this module once per route bundle, and a module-level map would be one per
// bundle, so a revocation made from the /tokens page would go unseen by the trainer API's routes.
const VERIFIED_MAX_AGE_MS = 1_000;
const VERIFIED_KEY = Symbol.for('envolve.verified-api-tokens');
type VerifiedTokens = Map<string, { at: number; user: TokenUser }>;
const verified: VerifiedTokens = ((globalThis as { [VERIFIED_KEY]?: VerifiedTokens })[VERIFIED_KEY] ??= new Map());

/** Forgets every remembered verification: after a revocation or a role change. */
export function forgetVerifiedTokens(): void {
  verified.clear();
}

/** The token's user, or null when the token is unknown or revoked, or its user deactivated or without a valid role. */
export async function verifyApiToken(db: Db, token: string, now = Date.now()): Promise<TokenUser | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const tokenHash = hashApiToken(token);
  const remembered = verified.get(tokenHash);
  if (remembered && now - remembered.at < VERIFIED_MAX_AGE_MS) return remembered.user;
  verified.delete(tokenHash);
  const row = await db.apiToken.findUnique({
    where: { tokenHash },
    select: {
      id: true,
      revokedAt: true,
      lastUsedAt: true,
      policies: true,
      user: { select: { id: true, email: true, name: true, role: true, deactivatedAt: true } },
    },
  });
  if (!row || row.revokedAt || row.user.deactivatedAt || !isRole(row.user.role)) return null;
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } });
  }
  const user = {
    id: row.user.id,
    email: row.user.email,
    name: row.user.name,
    role: row.user.role,
    token: { id: row.id, policies: tokenPoliciesOf(row.policies) },
  };
  verified.set(tokenHash, { at: now, user });
  return user;
}

export interface ApiTokenSummary {
  id: string;
  name: string;
  user: string; // the user's email
  policies: string[]; // the policies it may report groups for
  createdAt: Date;
  lastUsedAt: Date | null; // to the minute
  revokedAt: Date | null;
}

const SUMMARY_SELECT = { id: true, name: true, policies: true, createdAt: true, lastUsedAt: true, revokedAt: true, user: { select: { email: true } } } as const;
const toSummary = ({
  user,
  policies,
  ...row
}: { user: { email: string }; policies: string } & Omit<ApiTokenSummary, 'user' | 'policies'>): ApiTokenSummary => ({
  ...row,
  user: user.email,
  policies: tokenPoliciesOf(policies),
});

/** Every token, newest first: never the token itself, which only its holder has. */
export async function listApiTokens(db: Db): Promise<ApiTokenSummary[]> {
  const rows = await db.apiToken.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], select: SUMMARY_SELECT });
  return rows.map(toSummary);
}

/** Revokes a token; revoking it again keeps the first revocation time. */
export async function revokeApiToken(db: Db, id: string): Promise<ApiTokenSummary> {
  await db.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  forgetVerifiedTokens();
  const row = await db.apiToken.findUnique({ where: { id }, select: SUMMARY_SELECT });
  if (!row) throw new Error(`no API token with id ${id} (envolve tokens list shows them)`);
  return toSummary(row);
}
