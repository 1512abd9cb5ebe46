// One queue interface, two engines: the embedded queue (claims straight from the Job table; SQLite)
// and pg-boss (PostgreSQL). Either way the Job row is the record the app reads (jobs list, dashboard,
// metrics) and the lease on it is what proves a worker still owns a job.
import type { Db } from '../db/index.ts';
import type { BackoffPolicy } from './backoff.ts';
import { claimJob } from './claim.ts';
import { complete, deadLetter, fail, heartbeat, release } from './lease.ts';
import type { ClaimedJob, Clock, Job, Lease } from './types.ts';

export interface QueueBackend {
  readonly name: 'embedded' | 'pg-boss';
  /** The most urgent runnable job, leased to `workerId` for `leaseMs` (one attempt counted), or null. */
  claim(workerId: string, leaseMs: number, now?: Clock): Promise<ClaimedJob | null>;
  /** Extends the lease; throws LeaseLostError once another worker holds the job. */
  heartbeat(lease: Lease, leaseMs: number, now?: Clock): Promise<Date>;
  complete(lease: Lease, result: unknown, now?: Clock): Promise<void>;
  /** Retries after a backoff while attempts remain, else dead-letters. */
  fail(lease: Lease & Pick<Job, 'maxAttempts'>, error: unknown, backoff?: BackoffPolicy, now?: Clock): Promise<void>;
  deadLetter(lease: Lease, error: unknown, now?: Clock): Promise<void>;
  /** Hands an unfinished job back without counting the attempt (worker shutting down). */
  release(lease: Lease): Promise<void>;
  close(): Promise<void>;
}

export function embeddedQueue(db: Db): QueueBackend {
  return {
    name: 'embedded',
    claim: (workerId, leaseMs, now) => claimJob(db, { workerId, leaseMs, now }),
    heartbeat: (lease, leaseMs, now) => heartbeat(db, lease, { leaseMs, now }),
    complete: (lease, result, now) => complete(db, lease, result, { now }),
    fail: (lease, error, backoff, now) => fail(db, lease, error, { backoff, now }),
    deadLetter: (lease, error, now) => deadLetter(db, lease, error, { now }),
    release: (lease) => release(db, lease),
    close: async () => {},
  };
}
