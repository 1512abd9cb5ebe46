// The queue on PostgreSQL: pg-boss delivers, the Job table stays the record.
//
// - Enqueueing writes only the Job row (lib/queue/enqueue.ts), inside the caller's transaction when
//   there is one: the row is an outbox entry. Workers forward undispatched rows to pg-boss under a
//   pg-boss id derived from the row id, so forwarding twice (two workers, a crash in between) inserts
//   once (pg-boss ignores a conflicting id).
// - One pg-boss queue for every kind, so pg-boss's priority orders all work (review-blocking first).
// - pg-boss fetches with SKIP LOCKED (one job to one worker); the worker then leases the Job row and
//   heartbeats it as on SQLite. pg-boss 10 has no heartbeat, so its own expiry is only a backstop
//   for a lost attempt; a dead worker is detected by its expired row lease, and the job is failed in
//   pg-boss, which retries it with its backoff or, out of attempts, moves it to the dead-letter queue.
import { createHash } from 'node:crypto';
import PgBoss from 'pg-boss';
import type { Db } from '../db/index.ts';
import { DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.ts';
import type { QueueBackend } from './backend.ts';
import { complete, deadLetter, fail, heartbeat, release } from './lease.ts';
import { formatError } from './format-error.ts';
import { JobState, systemClock, type ClaimedJob, type Clock, type Job, type Lease } from './types.ts';

export const PG_BOSS_QUEUE = 'envolve-jobs';
export const PG_BOSS_DEAD_LETTER_QUEUE = 'envolve-jobs-dead';
// The backstop above: one attempt may run this long before pg-boss itself gives up on it (its maximum is 24 h).
const BOSS_EXPIRE_SECONDS = 23 * 60 * 60;
const FORWARD_BATCH = 200;
const EXPIRED_LEASES_PER_PASS = 20;
// A delivery pg-boss handed out whose row was never leased (the worker lost its database between
// the two, e.g. a server restart) is re-forwarded after this long; checked at most this often.
export const STRANDED_AFTER_MS = 30_000;
const STRANDED_PER_PASS = 20;

interface BossJobData {
  jobId: string;
}

/** The pg-boss id of a Job row: a UUID derived from the row id, so re-forwarding is a no-op. */
export function bossJobId(jobId: string): string {
  const hex = createHash('sha256').update(`envolve-job:${jobId}`).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const DEADLOCK_ATTEMPTS = 8;

// Workers starting together each create the queues; pg-boss creates a queue's partition table in
// the same statement, and two of those at once can deadlock (PostgreSQL error 40P01). PostgreSQL
// rolls one back; it is safe to run again, and finds the queue created by the other.
async function retryOnDeadlock(createQueue: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await createQueue();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if ((code !== '40P01' && code !== '23505') || attempt >= DEADLOCK_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}

// The retry delay handed to pg-boss, whole seconds (its unit), at least one.
function retryDelaySec(backoff: BackoffPolicy): number {
  return Math.max(1, Math.round(backoff.baseMs / 1000));
}

/**
 * The longest pg-boss waits before delivering a failed job's `retry`-th retry (1 for the first): with
 * retryBackoff its plan takes retryDelay * 2^min(16, retry) / 2, plus up to as much again at random.
 */
export function longestRetryDelayMs(backoff: BackoffPolicy, retry: number): number {
  return retryDelaySec(backoff) * 2 ** Math.min(16, retry) * 1000;
}

export interface PgBossQueueOptions {
  db: Db;
  url: string;
  backoff?: BackoffPolicy;
  logError?: (message: string, error: unknown) => void;
}

export class PgBossQueue implements QueueBackend {
  readonly name = 'pg-boss';
  readonly #db: Db;
  readonly #boss: PgBoss;
  readonly #retryDelaySec: number;
  #lastStrandedSweep = 0;

  private constructor(db: Db, boss: PgBoss, backoff: BackoffPolicy) {
    this.#db = db;
    this.#boss = boss;
    this.#retryDelaySec = retryDelaySec(backoff);
  }

  /** Connects, installs or upgrades pg-boss's schema (its own, `pgboss`) and creates the queues. */
  static async start(options: PgBossQueueOptions): Promise<PgBossQueue> {
    const boss = new PgBoss({ connectionString: options.url, max: 3, schedule: false, application_name: 'envolve-worker' });
    // pg-boss reports a lost connection (e.g. PostgreSQL restarting) as an event; its pool reconnects.
    boss.on('error', (error: Error) => options.logError?.('pg-boss', error));
    await boss.start();
    await retryOnDeadlock(() => boss.createQueue(PG_BOSS_DEAD_LETTER_QUEUE));
    await retryOnDeadlock(() => boss.createQueue(PG_BOSS_QUEUE, { name: PG_BOSS_QUEUE, deadLetter: PG_BOSS_DEAD_LETTER_QUEUE, retryBackoff: true }));
    return new PgBossQueue(options.db, boss, options.backoff ?? DEFAULT_BACKOFF);
  }

  async claim(workerId: string, leaseMs: number, now: Clock = systemClock): Promise<ClaimedJob | null> {
    await this.forwardOutbox(now);
    await this.failExpiredLeases(now);
    await this.#sweepStranded(now());
    for (;;) {
      const [delivered] = await this.#boss.fetch<BossJobData>(PG_BOSS_QUEUE, { batchSize: 1, priority: true });
      if (!delivered) return null;
      const claimed = await this.#leaseRow(delivered.id, delivered.data.jobId, workerId, leaseMs, now());
      if (claimed) return claimed;
    }
  }

  // pg-boss gave this worker the delivery; take the row's lease, or settle a stale delivery.
  async #leaseRow(bossId: string, jobId: string, workerId: string, leaseMs: number, at: Date): Promise<ClaimedJob | null> {
    const row = await this.#db.job.findUnique({ where: { id: jobId } });
    if (!row || row.state === JobState.succeeded || row.state === JobState.dead) {
      // Settled (or deleted) already: an attempt that finished just as pg-boss expired it.
      await this.#boss.cancel(PG_BOSS_QUEUE, bossId);
      return null;
    }
    if (row.state === JobState.running && row.leaseExpiresAt && row.leaseExpiresAt > at) {
      // Still leased and heartbeating elsewhere; pg-boss's backstop expiry ran out first. Retry later.
      await this.#boss.fail(PG_BOSS_QUEUE, bossId, { message: `job ${jobId} is still leased by ${row.leaseOwner}` });
      return null;
    }
    const lease = {
      state: JobState.running,
      attempts: row.attempts + 1,
      leaseOwner: workerId,
      leaseExpiresAt: new Date(at.getTime() + leaseMs),
      heartbeatAt: at,
    };
    const { count } = await this.#db.job.updateMany({ where: { id: row.id, state: row.state, attempts: row.attempts }, data: lease });
    if (count !== 1) {
      await this.#boss.fail(PG_BOSS_QUEUE, bossId, { message: `job ${jobId} changed while it was being leased` });
      return null;
    }
    return { ...row, ...lease };
  }

  /** Hands undispatched Job rows (the outbox) to pg-boss. Safe to run in any number of workers at once. */
  async forwardOutbox(now: Clock = systemClock): Promise<number> {
    const pending = await this.#db.job.findMany({
      where: { state: JobState.queued, dispatchedAt: null },
      orderBy: [{ priority: 'desc' }, { createdAt: 'asc' }],
      take: FORWARD_BATCH,
    });
    if (pending.length === 0) return 0;
    await this.#boss.insert(pending.map((job) => this.#bossInsert(job)));
    await this.#db.job.updateMany({ where: { id: { in: pending.map((job) => job.id) }, dispatchedAt: null }, data: { dispatchedAt: now() } });
    return pending.length;
  }

  #bossInsert(job: Job) {
    return {
      id: bossJobId(job.id),
      name: PG_BOSS_QUEUE,
      data: { jobId: job.id } satisfies BossJobData,
      priority: job.priority,
      startAfter: job.runAt,
      // pg-boss counts retries; the row counts attempts, including those made before a release.
      retryLimit: Math.max(0, job.maxAttempts - job.attempts - 1),
      retryDelay: this.#retryDelaySec,
      retryBackoff: true,
      expireInSeconds: BOSS_EXPIRE_SECONDS,
      deadLetter: PG_BOSS_DEAD_LETTER_QUEUE,
    };
  }

  /** Jobs whose worker stopped heartbeating (killed, partitioned): retried, or dead-lettered on their last attempt. */
  async failExpiredLeases(now: Clock = systemClock): Promise<number> {
    const at = now();
    const expired = await this.#db.job.findMany({
      where: { state: JobState.running, leaseExpiresAt: { lt: at } },
      take: EXPIRED_LEASES_PER_PASS,
    });
    let failed = 0;
    for (const job of expired) {
      const lost = `Lease of ${job.leaseOwner ?? 'unknown worker'} expired on attempt ${job.attempts} of ${job.maxAttempts}; the worker was lost.`;
      const outOfAttempts = job.attempts >= job.maxAttempts;
      const { count } = await this.#db.job.updateMany({
        where: { id: job.id, state: JobState.running, attempts: job.attempts, leaseOwner: job.leaseOwner, leaseExpiresAt: { lt: at } },
        data: {
          state: outOfAttempts ? JobState.dead : JobState.queued,
          leaseOwner: null,
          leaseExpiresAt: null,
          finishedAt: outOfAttempts ? at : null,
          lastError: job.lastError ? `${lost}\nPrevious error: ${job.lastError}` : lost,
        },
      });
      if (count !== 1) continue;
      await this.#boss.fail(PG_BOSS_QUEUE, bossJobId(job.id), { message: lost });
      failed++;
    }
    return failed;
  }

  async #sweepStranded(at: Date): Promise<void> {
    if (at.getTime() - this.#lastStrandedSweep < STRANDED_AFTER_MS) return;
    this.#lastStrandedSweep = at.getTime();
    await this.redispatchStranded(at);
  }

  /**
   * Queued rows whose pg-boss delivery can no longer reach a worker: fetched (active) long ago but
   * never leased, settled in pg-boss while the row still waits, or gone. Their delivery is deleted and
   * the outbox forwards the row again. Deliveries still waiting in pg-boss (created, retry) are left be.
   */
  async redispatchStranded(at: Date = systemClock()): Promise<number> {
    const cutoff = new Date(at.getTime() - STRANDED_AFTER_MS);
    const rows = await this.#db.job.findMany({
      where: { state: JobState.queued, dispatchedAt: { lt: cutoff }, runAt: { lt: cutoff } },
      orderBy: { dispatchedAt: 'asc' },
      take: STRANDED_PER_PASS,
    });
    let redispatched = 0;
    for (const row of rows) {
      const delivery = await this.#boss.getJobById(PG_BOSS_QUEUE, bossJobId(row.id));
      const waiting = delivery && (delivery.state === 'created' || delivery.state === 'retry');
      const inFlight = delivery?.state === 'active' && delivery.startedOn > cutoff;
      if (waiting || inFlight) continue;
      if (delivery) await this.#boss.deleteJob(PG_BOSS_QUEUE, delivery.id);
      const { count } = await this.#db.job.updateMany({
        where: { id: row.id, state: JobState.queued, dispatchedAt: row.dispatchedAt },
        data: { dispatchedAt: null },
      });
      redispatched += count;
    }
    return redispatched;
  }

  heartbeat(lease: Lease, leaseMs: number, now?: Clock): Promise<Date> {
    return heartbeat(this.#db, lease, { leaseMs, now });
  }

  // The row first: if the lease was lost, the job belongs to another worker and pg-boss is not touched.
  async complete(lease: Lease, result: unknown, now?: Clock): Promise<void> {
    await complete(this.#db, lease, result, { now });
    await this.#boss.complete(PG_BOSS_QUEUE, bossJobId(lease.id));
  }

  async fail(lease: Lease & Pick<Job, 'maxAttempts'>, error: unknown, backoff?: BackoffPolicy, now?: Clock): Promise<void> {
    await fail(this.#db, lease, error, { now, backoff });
    await this.#boss.fail(PG_BOSS_QUEUE, bossJobId(lease.id), { message: formatError(error) });
  }

  // pg-boss dead-letters only when its retries run out; giving up early means cancelling the delivery
  // and filing the dead letter ourselves.
  async deadLetter(lease: Lease, error: unknown, now?: Clock): Promise<void> {
    await deadLetter(this.#db, lease, error, { now });
    await this.#boss.cancel(PG_BOSS_QUEUE, bossJobId(lease.id));
    await this.#boss.send(PG_BOSS_DEAD_LETTER_QUEUE, { jobId: lease.id, error: formatError(error) });
  }

  // pg-boss cannot hand a job back uncounted; delete the delivery and let the outbox forward the row again.
  async release(lease: Lease): Promise<void> {
    await release(this.#db, lease);
    await this.#boss.deleteJob(PG_BOSS_QUEUE, bossJobId(lease.id));
    await this.#db.job.updateMany({ where: { id: lease.id, state: JobState.queued }, data: { dispatchedAt: null } });
  }

  async close(): Promise<void> {
    await this.#boss.stop({ graceful: false, wait: true });
  }
}
