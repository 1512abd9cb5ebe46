import type { Db } from '../db/index.ts';
import type { Job, JobState } from './types.ts';

export interface ListJobsOptions {
  state?: JobState;
  kind?: string;
  limit?: number;
}

/** Newest first. */
export function listJobs(db: Db, options: ListJobsOptions = {}): Promise<Job[]> {
  return db.job.findMany({
    where: { state: options.state, kind: options.kind },
    orderBy: { createdAt: 'desc' },
    take: options.limit ?? 100,
  });
}

/** Number of jobs in each state (states without jobs count 0). */
export async function queueDepth(db: Db, options: { kind?: string } = {}): Promise<Record<JobState, number>> {
  const groups = await db.job.groupBy({ by: ['state'], where: { kind: options.kind }, _count: { _all: true } });
  const depth: Record<JobState, number> = { queued: 0, running: 0, succeeded: 0, dead: 0 };
  for (const group of groups) depth[group.state as JobState] = group._count._all;
  return depth;
}
