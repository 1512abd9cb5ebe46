import { Prisma } from '../db/index.ts';
import { systemClock, type Clock, type Job } from './types.ts';

export interface EnqueueOptions {
  priority?: number;
  runAt?: Date;
  maxAttempts?: number;
  /** Enqueueing twice with the same key returns the first job instead of adding another. */
  dedupeKey?: string;
  now?: Clock;
}

// The database client or a transaction client: a job queued inside a transaction commits (or
// rolls back) with the change that asked for it.
export type JobWriter = Pick<Prisma.TransactionClient, 'job'>;

export async function enqueue(db: JobWriter, kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<Job> {
  const { dedupeKey } = options;
  if (dedupeKey !== undefined) {
    const existing = await db.job.findUnique({ where: { dedupeKey } });
    if (existing) return existing;
  }
  const now = (options.now ?? systemClock)();
  try {
    return await db.job.create({
      data: {
        kind,
        payload: JSON.stringify(payload ?? null),
        priority: options.priority ?? 0,
        runAt: options.runAt ?? now,
        maxAttempts: options.maxAttempts ?? 5,
        dedupeKey: dedupeKey ?? null,
        createdAt: now,
      },
    });
  } catch (error) {
    // Another process enqueued the same key between our lookup and insert.
    if (dedupeKey !== undefined && isUniqueViolation(error)) {
      const existing = await db.job.findUnique({ where: { dedupeKey } });
      if (existing) return existing;
    }
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}
