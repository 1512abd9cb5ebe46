// Exactly-once group reports: a trainer sends an Idempotency-Key with each group, one key per
// group, and retries with the same key when an answer is lost. The key is stored in the same
// transaction as the group it made, under a unique (scope, key) constraint, so two requests racing
// with one key store one group: the loser's transaction rolls back and it answers the winner's
// group. A key answers again until it expires (ENVOLVE_IDEMPOTENCY_TTL_HOURS); expired keys are
// swept at most once a minute per process.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { ConflictError, InvalidInputError } from '../errors/index.ts';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_REPLAYED_HEADER = 'Idempotency-Replayed';

// Printable ASCII without spaces, as UUIDs, ULIDs and "run-7/step-120/group-3" are.
const keySchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7e]+$/);

/** The request's Idempotency-Key, undefined when it sent none; a malformed key is a 400. */
export function idempotencyKeyOf(headers: Headers): string | undefined {
  const raw = headers.get(IDEMPOTENCY_KEY_HEADER);
  if (raw === null) return undefined;
  const parsed = keySchema.safeParse(raw.trim());
  if (!parsed.success)
    throw new InvalidInputError('Idempotency-Key: expected 1 to 200 printable ASCII characters without spaces (one key per group, e.g. a UUID)');
  return parsed.data;
}

/** Whose keys these are: a token's, or a signed-in user's when no token was presented. */
export function idempotencyScope(reporter: { tokenId: string | null; userId: string }): string {
  return reporter.tokenId ? `token:${reporter.tokenId}` : `user:${reporter.userId}`;
}

// Key order does not make two bodies different: the hash is of the parsed body with sorted keys.
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

export function requestHash(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(body)))
    .digest('hex');
}

export interface StoredKey {
  requestHash: string;
  groupId: string;
  response: string | null;
  expiresAt: Date;
}

/** The live key of this scope, or null; a key used with another body is a 409. */
export async function liveKey(db: Db, scope: string, key: string, hash: string, now: Date): Promise<StoredKey | null> {
  const row = await db.idempotencyKey.findUnique({ where: { scope_key: { scope, key } } });
  if (!row || row.expiresAt <= now) return null;
  if (row.requestHash !== hash) {
    throw new ConflictError(`Idempotency-Key "${key}" was used with another request body: a key names one group (make a new key for a new group)`, {
      code: 'idempotency_key_reused',
    });
  }
  return row;
}

const SWEEP_INTERVAL_MS = 60_000;
const lastSweep = new WeakMap<Db, number>();

/** Deletes the keys that expired before `now`; returns how many. */
export async function sweepExpiredIdempotencyKeys(db: Db, now: Date): Promise<number> {
  const { count } = await db.idempotencyKey.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}

/** Sweeps when this process has not swept for a minute, so a busy trainer does not pay a delete per group. */
export async function sweepIfDue(db: Db, now: Date): Promise<void> {
  const last = lastSweep.get(db);
  if (last !== undefined && now.getTime() - last < SWEEP_INTERVAL_MS) return;
  lastSweep.set(db, now.getTime());
  await sweepExpiredIdempotencyKeys(db, now);
}

export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'P2002';
}
