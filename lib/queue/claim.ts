import type { Db } from '../db/index.ts';
import { JobState, systemClock, type ClaimedJob, type Clock, type Job } from './types.ts';

export interface ClaimOptions {
  workerId: string;
  leaseMs: number;
  now?: Clock;
}

// Enough candidates that a few lost races or exhausted jobs do not leave a worker idle.
const CANDIDATES_PER_CLAIM = 10;

/**
 * Claims the most urgent runnable job: queued and due, or running under a lease that expired because
 * its worker died. Each claim is a guarded update, so when several workers race only one wins a job.
 * Claiming counts an attempt, which is how a lost worker's attempt is counted too.
 */
export async function claimJob(db: Db, options: ClaimOptions): Promise<ClaimedJob | null> {
  const now = (options.now ?? systemClock)();
  const candidates = await db.job.findMany({
    where: {
      OR: [
        { state: JobState.queued, runAt: { lte: now } },
        { state: JobState.running, leaseExpiresAt: { lt: now } },
      ],
    },
    orderBy: [{ priority: 'desc' }, { runAt: 'asc' }, { createdAt: 'asc' }],
    take: CANDIDATES_PER_CLAIM,
  });
  for (const candidate of candidates) {
    if (candidate.state === JobState.running && candidate.attempts >= candidate.maxAttempts) {
      await deadLetterAbandoned(db, candidate, now);
      continue;
    }
    const lease = {
      state: JobState.running,
      attempts: candidate.attempts + 1,
      leaseOwner: options.workerId,
      leaseExpiresAt: new Date(now.getTime() + options.leaseMs),
      heartbeatAt: now,
    };
    const { count } = await db.job.updateMany({ where: unchangedSince(candidate, now), data: lease });
    if (count === 1) return { ...candidate, ...lease };
  }
  return null;
}

// Every claim bumps `attempts`, so it serves as the row's version for compare-and-swap.
function unchangedSince(candidate: Job, now: Date) {
  return candidate.state === JobState.queued
    ? { id: candidate.id, state: JobState.queued, attempts: candidate.attempts, runAt: { lte: now } }
    : {
        id: candidate.id,
        state: JobState.running,
        attempts: candidate.attempts,
        leaseOwner: candidate.leaseOwner,
        leaseExpiresAt: { lt: now },
      };
}

async function deadLetterAbandoned(db: Db, job: Job, now: Date): Promise<void> {
  const lost = `Lease of ${job.leaseOwner ?? 'unknown worker'} expired on attempt ${job.attempts} of ${job.maxAttempts}; the worker was lost.`;
  await db.job.updateMany({
    where: unchangedSince(job, now),
    data: {
      state: JobState.dead,
      leaseOwner: null,
      leaseExpiresAt: null,
      finishedAt: now,
      lastError: job.lastError ? `${lost}\nPrevious error: ${job.lastError}` : lost,
    },
  });
}
