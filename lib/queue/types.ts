import type { Job } from '../db/generated/client.ts';
import { ConflictError } from '../errors/index.ts';

export type { Job };

export type JobState = 'queued' | 'running' | 'succeeded' | 'dead';

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
