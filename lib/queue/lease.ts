import type { Db } from '../db/index.ts';
import { DEFAULT_BACKOFF, retryDelayMs, type BackoffPolicy } from './backoff.ts';
import { formatError } from './format-error.ts';
import { JobState, LeaseLostError, systemClock, type Clock, type Job, type Lease } from './types.ts';

function heldBy(lease: Lease) {
  return { id: lease.id, state: JobState.running, leaseOwner: lease.leaseOwner, attempts: lease.attempts };
}

async function updateHeld(db: Db, lease: Lease, data: Parameters<Db['job']['updateMany']>[0]['data']): Promise<void> {
  const { count } = await db.job.updateMany({ where: heldBy(lease), data });
  if (count !== 1) throw new LeaseLostError(lease);
}

/** Extends the lease; throws LeaseLostError if another worker took the job meanwhile. Returns the new expiry. */
export async function heartbeat(db: Db, lease: Lease, options: { leaseMs: number; now?: Clock }): Promise<Date> {
  const now = (options.now ?? systemClock)();
  const leaseExpiresAt = new Date(now.getTime() + options.leaseMs);
  await updateHeld(db, lease, { leaseExpiresAt, heartbeatAt: now });
  return leaseExpiresAt;
}

export async function complete(db: Db, lease: Lease, result: unknown, options: { now?: Clock } = {}): Promise<void> {
  const now = (options.now ?? systemClock)();
  await updateHeld(db, lease, {
    state: JobState.succeeded,
    result: JSON.stringify(result ?? null),
    leaseOwner: null,
    leaseExpiresAt: null,
    finishedAt: now,
  });
}

export interface FailOptions {
  now?: Clock;
  backoff?: BackoffPolicy;
}

/** Records the error; retries after a backoff while attempts remain, otherwise dead-letters the job. */
export async function fail(db: Db, lease: Lease & Pick<Job, 'maxAttempts'>, error: unknown, options: FailOptions = {}): Promise<void> {
  if (lease.attempts >= lease.maxAttempts) return deadLetter(db, lease, error, options);
  const now = (options.now ?? systemClock)();
  await updateHeld(db, lease, {
    state: JobState.queued,
    lastError: formatError(error),
    runAt: new Date(now.getTime() + retryDelayMs(lease.attempts, options.backoff ?? DEFAULT_BACKOFF)),
    leaseOwner: null,
    leaseExpiresAt: null,
  });
}

/** Gives up on the job now, whatever attempts remain, keeping the error. */
export async function deadLetter(db: Db, lease: Lease, error: unknown, options: { now?: Clock } = {}): Promise<void> {
  const now = (options.now ?? systemClock)();
  await updateHeld(db, lease, {
    state: JobState.dead,
    lastError: formatError(error),
    leaseOwner: null,
    leaseExpiresAt: null,
    finishedAt: now,
  });
}

/** Hands an unfinished job back without counting the attempt, e.g. when a worker shuts down. */
export async function release(db: Db, lease: Lease): Promise<void> {
  await updateHeld(db, lease, {
    state: JobState.queued,
    attempts: lease.attempts - 1,
    leaseOwner: null,
    leaseExpiresAt: null,
  });
}
