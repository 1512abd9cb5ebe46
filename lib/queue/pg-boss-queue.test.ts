// The pg-boss queue against a real PostgreSQL (the PostgreSQL run of `npm test`); skipped on SQLite.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { createTestDb, testProvider, type TestDb } from '../../test/fixtures/db.ts';
import { enqueue } from './enqueue.ts';
import PgBoss from 'pg-boss';
import { longestRetryDelayMs, PG_BOSS_QUEUE, PgBossQueue } from './pg-boss-queue.ts';
import { runWorker } from './run-worker.ts';
import { waitFor } from '../../test/fixtures/wait-for.ts';
import { limitMs, UNBUDGETED_STEP_MS } from '../../test/budgets.ts';

const onPostgres = testProvider() === 'postgresql';

describe.runIf(onPostgres)('PgBossQueue', () => {
  let testDb: TestDb;
  let db: Db;
  let queue: PgBossQueue;
  let other: PgBossQueue;
  const leaseMs = 60_000;
  const backoff = { baseMs: 1_000, maxMs: 1_000 };
  // A failed job's first retry is due within pg-boss's backoff; the claims polling for it are database work.
  const firstRetryLimitMs = limitMs(longestRetryDelayMs(backoff, 1), UNBUDGETED_STEP_MS);

  beforeAll(async () => {
    testDb = await createTestDb();
    db = testDb.db;
    queue = await PgBossQueue.start({ db, url: testDb.url, backoff });
    other = await PgBossQueue.start({ db, url: testDb.url, backoff });
  });
  afterAll(async () => {
    await queue?.close();
    await other?.close();
    await testDb?.cleanup();
  });
  beforeEach(async () => {
    // Drain whatever an earlier test left in pg-boss, then the rows.
    while (await queue.claim('drain', leaseMs)) {
      // claimed and dropped
    }
    await db.job.deleteMany();
  });

  const row = (id: string) => db.job.findUniqueOrThrow({ where: { id } });

  it('delivers a job enqueued in a committed transaction, never one whose transaction rolled back', async () => {
    const committed = await db.$transaction((tx) => enqueue(tx as Db, 'k', { n: 1 }));
    await expect(
      db.$transaction(async (tx) => {
        await enqueue(tx as Db, 'k', { n: 2 });
        throw new Error('decision aborted');
      }),
    ).rejects.toThrow('decision aborted');
    const first = await queue.claim('w', leaseMs);
    expect(first).toMatchObject({ id: committed.id, state: 'running', attempts: 1, leaseOwner: 'w' });
    expect(await queue.claim('w', leaseMs)).toBeNull();
    expect(await db.job.count()).toBe(1);
  });

  it('forwards each row once however many workers forward at the same time', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, n) => enqueue(db, 'k', { n })));
    await Promise.all([queue.forwardOutbox(), other.forwardOutbox(), queue.forwardOutbox()]);
    const claimed: string[] = [];
    const drain = async (q: PgBossQueue, id: string) => {
      for (let job = await q.claim(id, leaseMs); job; job = await q.claim(id, leaseMs)) claimed.push(job.id);
    };
    await Promise.all([drain(queue, 'a'), drain(other, 'b'), drain(queue, 'c')]);
    expect(claimed).toHaveLength(12);
    expect(new Set(claimed).size).toBe(12);
  });

  it('delivers higher priority first, across job kinds', async () => {
    const low = await enqueue(db, 'backtest', {}, { priority: 0 });
    const high = await enqueue(db, 'revise', {}, { priority: 10 });
    const mid = await enqueue(db, 'validate', {}, { priority: 5 });
    const order = [await queue.claim('w', leaseMs), await queue.claim('w', leaseMs), await queue.claim('w', leaseMs)];
    expect(order.map((job) => job?.id)).toEqual([high.id, mid.id, low.id]);
  });

  it('retries a failed job after pg-boss backoff, then dead-letters it keeping the error', async () => {
    const { id } = await enqueue(db, 'k', {}, { maxAttempts: 2 });
    const first = await queue.claim('w', leaseMs);
    await queue.fail(first!, new Error('boom 1'), backoff);
    expect(await row(id)).toMatchObject({ state: 'queued', attempts: 1 });
    expect(await queue.claim('w', leaseMs)).toBeNull(); // not due yet
    const second = await waitFor(() => queue.claim('w', leaseMs), firstRetryLimitMs);
    expect(second).toMatchObject({ id, attempts: 2 });
    await queue.fail(second, new Error('boom 2'), backoff);
    expect(await row(id)).toMatchObject({ state: 'dead', attempts: 2 });
    expect((await row(id)).lastError).toMatch(/^Error: boom 2/);
  });

  it('retries the job of a worker whose lease expired, counting the lost attempt', async () => {
    const { id } = await enqueue(db, 'k', {});
    const deadLeaseMs = 500;
    await queue.claim('dead-worker', deadLeaseMs);
    expect(await other.claim('rescuer', leaseMs)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, deadLeaseMs + 100));
    // The next claim fails the expired lease; pg-boss delivers that retry after its backoff.
    const rescued = await waitFor(() => other.claim('rescuer', leaseMs), firstRetryLimitMs);
    expect(rescued).toMatchObject({ id, attempts: 2, leaseOwner: 'rescuer' });
    expect(rescued.lastError).toContain('Lease of dead-worker expired');
  });

  it('hands a released job back without counting the attempt', async () => {
    const { id } = await enqueue(db, 'k', {});
    const job = await queue.claim('stopping', leaseMs);
    await queue.release(job!);
    const again = await other.claim('next', leaseMs);
    expect(again).toMatchObject({ id, attempts: 1, leaseOwner: 'next' });
  });

  it('re-forwards a delivery fetched by a worker that lost its database before leasing the row', async () => {
    const stranded = await enqueue(db, 'k', { n: 1 });
    const waiting = await enqueue(db, 'k', { n: 2 }, { priority: -1 });
    await queue.forwardOutbox();
    // A worker (its own pg-boss connection) takes the delivery, then dies before touching the row.
    const lost = new PgBoss({ connectionString: testDb.url, max: 1, schedule: false, supervise: false });
    await lost.start();
    const [fetched] = await lost.fetch<{ jobId: string }>(PG_BOSS_QUEUE, { batchSize: 1, priority: true });
    await lost.stop({ graceful: false, wait: true });
    expect(fetched?.data.jobId).toBe(stranded.id);

    expect(await queue.redispatchStranded(new Date())).toBe(0); // too recent to call stranded
    const later = new Date(Date.now() + 31_000);
    expect(await queue.redispatchStranded(later)).toBe(1); // the one still waiting in pg-boss is left be
    expect((await row(stranded.id)).dispatchedAt).toBeNull();
    expect((await row(waiting.id)).dispatchedAt).not.toBeNull();
    const claimed = [await queue.claim('w', leaseMs), await queue.claim('w', leaseMs)];
    expect(claimed.map((job) => job?.id)).toEqual([stranded.id, waiting.id]);
  });

  it('two workers share a burst: every job runs once', async () => {
    const jobs = await Promise.all(Array.from({ length: 30 }, (_, n) => enqueue(db, 'burst', { n })));
    const runs: number[] = [];
    const stop = new AbortController();
    const jobMs = 10;
    const pollMs = 50;
    const handlers = {
      burst: async ({ n }: { n: number }) => {
        runs.push(n);
        await new Promise((resolve) => setTimeout(resolve, jobMs));
        return n;
      },
    };
    const workers = [queue, other].map((q, index) => runWorker({ db, queue: q, workerId: `w${index}`, concurrency: 3, pollMs, handlers, signal: stop.signal }));
    // At worst one job at a time, each after a poll, plus the database's own work.
    const burstLimitMs = limitMs(jobs.length * (pollMs + jobMs), UNBUDGETED_STEP_MS);
    await waitFor(async () => (await db.job.count({ where: { state: 'succeeded' } })) === jobs.length, burstLimitMs);
    stop.abort();
    await Promise.all(workers);
    expect(runs.sort((a, b) => a - b)).toEqual(jobs.map((_, n) => n));
    const owners = await db.job.findMany({ select: { attempts: true } });
    expect(owners.every((job) => job.attempts === 1)).toBe(true);
  });
});

describe.runIf(onPostgres)('PgBossQueue.start', () => {
  it('starts several workers at once on a fresh database (their queue creations can deadlock; each is retried)', async () => {
    const testDb = await createTestDb();
    try {
      const queues = await Promise.all(Array.from({ length: 4 }, () => PgBossQueue.start({ db: testDb.db, url: testDb.url })));
      const job = await enqueue(testDb.db, 'k', {});
      expect((await queues[3]!.claim('w', 60_000))?.id).toBe(job.id);
      await Promise.all(queues.map((queue) => queue.close()));
    } finally {
      await testDb.cleanup();
    }
  });
});
