// A person's own API tokens, made and revoked from the dashboard's /tokens page: a trainer names
// one for each machine, copies it once, and revokes it when the machine is gone. Each change is
// audited; a token of someone else is not found, as if it did not exist.
import { z } from 'zod';
import { recordAudit } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { NotFoundError } from '../errors/index.ts';
import { assertCan, type Actor } from './actor.ts';
import { createApiToken, forgetVerifiedTokens, tokenPoliciesOf } from './api-tokens.ts';

export const TOKEN_NAME_MAX = 80;
export const tokenNameSchema = z.string().trim().min(1, 'name the token (what will use it)').max(TOKEN_NAME_MAX);

export interface OwnApiToken {
  id: string;
  name: string;
  policies: string[]; // the policies it may report groups for
  createdAt: Date;
  lastUsedAt: Date | null; // to the minute
  revokedAt: Date | null;
}

const OWN_SELECT = { id: true, name: true, policies: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;
const toOwn = (row: Omit<OwnApiToken, 'policies'> & { policies: string }): OwnApiToken => ({ ...row, policies: tokenPoliciesOf(row.policies) });

type SignedIn = Actor & { id: string };

function signedIn(actor: Actor): SignedIn {
  assertCan(actor, 'api-tokens.own');
  if (!actor.id) throw new Error('API tokens belong to a signed-in user');
  return actor as SignedIn;
}

export class ApiTokenNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`no API token ${id} of yours`);
  }
}

/** The actor's tokens, active first, newest first within each. */
export async function listOwnApiTokens(db: Db, actor: Actor): Promise<OwnApiToken[]> {
  const { id } = signedIn(actor);
  const rows = await db.apiToken.findMany({ where: { userId: id }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], select: OWN_SELECT });
  return [...rows.filter((r) => !r.revokedAt), ...rows.filter((r) => r.revokedAt)].map(toOwn);
}

/**
 * A new token of the actor's, reporting for `policies` (comma-separated or a list; `trainer` when
 * none): the plaintext is in the result and nowhere else, ever.
 */
export async function createOwnApiToken(
  db: Db,
  actor: Actor,
  rawName: string,
  policies?: string | readonly string[],
): Promise<{ id: string; name: string; token: string; policies: string[] }> {
  const owner = signedIn(actor);
  const name = tokenNameSchema.parse(rawName);
  return db.$transaction(async (tx) => {
    const created = await createApiToken(tx, owner.id, name, policies);
    await recordAudit(tx, {
      actor: owner,
      action: 'api-token.create',
      subjectType: 'user',
      subjectId: owner.id,
      after: { tokenId: created.id, name, policies: created.policies },
    });
    return created;
  });
}

/** Revokes one of the actor's tokens; revoking it again keeps the first revocation. */
export async function revokeOwnApiToken(db: Db, actor: Actor, tokenId: string): Promise<OwnApiToken> {
  const owner = signedIn(actor);
  const token = await db.$transaction(async (tx) => {
    const row = await tx.apiToken.findFirst({ where: { id: tokenId, userId: owner.id }, select: OWN_SELECT });
    if (!row) throw new ApiTokenNotFoundError(tokenId);
    if (row.revokedAt) return toOwn(row);
    const revoked = await tx.apiToken.update({ where: { id: row.id }, data: { revokedAt: new Date() }, select: OWN_SELECT });
    await recordAudit(tx, { actor: owner, action: 'api-token.revoke', subjectType: 'user', subjectId: owner.id, after: { tokenId: row.id, name: row.name } });
    return toOwn(revoked);
  });
  forgetVerifiedTokens();
  return token;
}
