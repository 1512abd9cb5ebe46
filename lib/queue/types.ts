import type { Job } from '../db/index.ts';
import { ConflictError } from '../errors/index.ts';

export type { Job };

// A job's states: queued until a worker claims it, running while its lease is held, then
// succeeded or, out of attempts, dead (claim.ts, lease.ts, pg-boss-queue.ts move it).
export const JobState = {
  queued: 'queued',
  running: 'running',
  succeeded: 'succeeded',
  dead: 'dead',
} as const;
export type JobState = (typeof JobState)[keyof typeof JobState];
export const JOB_STATES = [JobState.queued, JobState.running, JobState.succeeded, JobState.dead] as const;
// Not finished: waiting for a worker or held by one.
export const ACTIVE_JOB_STATES = [JobState.queued, JobState.running] as const;

export function isActiveJobState(state: string): boolean {
  return (ACTIVE_JOB_STATES as readonly string[]).includes(state);
}

export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** What proves a worker still holds a job: the owner and the attempt it claimed. */
export interface Lease {
  id: string;
  leaseOwner: string;
  attempts: number;
}

export type ClaimedJob = Job & Lease & { leaseExpiresAt: Date };

export class LeaseLostError extends ConflictError {
  constructor(lease: Lease) {
    super(`Lease on job ${lease.id} (attempt ${lease.attempts}) is no longer held by ${lease.leaseOwner}`, {
      code: 'lease_lost',
      details: { jobId: lease.id },
    });
  }
}
