import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { retryDelayMs } from './backoff.ts';
import { claimJob } from './claim.ts';
import { enqueue } from './enqueue.ts';
import { listJobs, queueDepth } from './inspect.ts';
import { complete, deadLetter, fail, heartbeat } from './lease.ts';
import { fakeClock, type FakeClock } from '../../test/fixtures/clock.ts';
import { LeaseLostError } from './types.ts';

let testDb: TestDb;
let db: Db;
let clock: FakeClock;
const leaseMs = 1_000;

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
});
afterAll(() => testDb.cleanup());
beforeEach(async () => {
  await db.job.deleteMany();
  clock = fakeClock();
});

const claim = (workerId: string, on: Db = db) => claimJob(on, { workerId, leaseMs, now: clock.now });

describe('enqueue', () => {
  it('stores the payload as JSON with the given options', async () => {
    const runAt = new Date(clock.now().getTime() + 5_000);
    const job = await enqueue(db, 'validate', { versionId: 'abc' }, { priority: 3, runAt, maxAttempts: 2, now: clock.now });
    expect(job).toMatchObject({ kind: 'validate', payload: '{"versionId":"abc"}', state: 'queued', priority: 3, maxAttempts: 2, attempts: 0 });
    expect(job.runAt).toEqual(runAt);
  });

  it('returns the existing job for a repeated dedupe key, also when racing', async () => {
    const first = await enqueue(db, 'validate', { n: 1 }, { dedupeKey: 'v:abc' });
    const again = await enqueue(db, 'validate', { n: 2 }, { dedupeKey: 'v:abc' });
    const raced = await Promise.all([1, 2, 3].map((n) => enqueue(db, 'validate', { n }, { dedupeKey: 'v:def' })));
    expect(again.id).toBe(first.id);
    expect(new Set(raced.map((job) => job.id)).size).toBe(1);
    expect(await db.job.count()).toBe(2);
  });
});

describe('claimJob', () => {
  it('takes higher priority first, then the oldest runAt, and skips jobs not yet due', async () => {
    const at = (offsetMs: number) => new Date(clock.now().getTime() + offsetMs);
    const low = await enqueue(db, 'k', {}, { priority: 0, runAt: at(-3_000) });
    const highNewer = await enqueue(db, 'k', {}, { priority: 5, runAt: at(-1_000) });
    const highOlder = await enqueue(db, 'k', {}, { priority: 5, runAt: at(-2_000) });
    await enqueue(db, 'k', {}, { priority: 9, runAt: at(60_000) });

    const order = [await claim('w'), await claim('w'), await claim('w'), await claim('w')];
    expect(order.map((job) => job?.id ?? null)).toEqual([highOlder.id, highNewer.id, low.id, null]);
  });

  it('never gives one job to two concurrent claimers', async () => {
    const other = createDb(testDb.url);
    try {
      const ids = await Promise.all(Array.from({ length: 20 }, () => enqueue(db, 'k', {}, { now: clock.now })));
      const claimed: string[] = [];
      const claimUntilEmpty = async (workerId: string, on: Db) => {
        for (let job = await claim(workerId, on); job; job = await claim(workerId, on)) claimed.push(job.id);
      };
      await Promise.all([claimUntilEmpty('a', db), claimUntilEmpty('b', other), claimUntilEmpty('c', db), claimUntilEmpty('d', other)]);
      expect(claimed.sort()).toEqual(ids.map((job) => job.id).sort());
    } finally {
      await other.$disconnect();
    }
  });

  it('reclaims a running job once its lease expires, counting the lost attempt', async () => {
    const { id } = await enqueue(db, 'k', {}, { now: clock.now });
    const first = await claim('dead-worker');
    clock.advance(leaseMs - 1);
    expect(await claim('rescuer')).toBeNull();
    clock.advance(2);
    const second = await claim('rescuer');
    expect(second).toMatchObject({ id, attempts: 2, leaseOwner: 'rescuer' });
    await expect(complete(db, first!, 'late', { now: clock.now })).rejects.toBeInstanceOf(LeaseLostError);
    await complete(db, second!, 'done', { now: clock.now });
    expect(await db.job.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'succeeded', result: '"done"', attempts: 2 });
  });

  it('dead-letters a job whose worker was lost on its last attempt', async () => {
    const { id } = await enqueue(db, 'k', {}, { maxAttempts: 1, now: clock.now });
    await claim('dead-worker');
    clock.advance(leaseMs + 1);
    expect(await claim('rescuer')).toBeNull();
    const job = await db.job.findUniqueOrThrow({ where: { id } });
    expect(job.state).toBe('dead');
    expect(job.lastError).toContain('dead-worker');
  });
});

describe('heartbeat', () => {
  it('keeps the lease past its original expiry', async () => {
    await enqueue(db, 'k', {}, { now: clock.now });
    const job = await claim('w1');
    clock.advance(leaseMs * 0.8);
    await heartbeat(db, job!, { leaseMs, now: clock.now });
    clock.advance(leaseMs * 0.8);
    expect(await claim('w2')).toBeNull();
  });

  it('fails once the lease was lost to another worker', async () => {
    await enqueue(db, 'k', {}, { now: clock.now });
    const job = await claim('w1');
    clock.advance(leaseMs + 1);
    expect(await claim('w2')).not.toBeNull();
    await expect(heartbeat(db, job!, { leaseMs, now: clock.now })).rejects.toBeInstanceOf(LeaseLostError);
  });
});

describe('fail', () => {
  const backoff = { baseMs: 1_000, maxMs: 3_000 };

  it('retries with exponential backoff, then dead-letters keeping the last error', async () => {
    const { id } = await enqueue(db, 'k', {}, { maxAttempts: 4, now: clock.now });
    const expectedDelays = [1_000, 2_000, 3_000];
    for (const [index, delay] of expectedDelays.entries()) {
      const job = await claim('w');
      await fail(db, job!, new Error(`boom ${index + 1}`), { now: clock.now, backoff });
      const row = await db.job.findUniqueOrThrow({ where: { id } });
      expect(row).toMatchObject({ state: 'queued', attempts: index + 1 });
      expect(row.runAt.getTime() - clock.now().getTime()).toBe(delay);
      clock.advance(delay - 1);
      expect(await claim('w')).toBeNull();
      clock.advance(1);
    }
    const last = await claim('w');
    await fail(db, last!, new Error('boom 4'), { now: clock.now, backoff });
    const dead = await db.job.findUniqueOrThrow({ where: { id } });
    expect(dead).toMatchObject({ state: 'dead', attempts: 4 });
    expect(dead.lastError).toMatch(/^Error: boom 4\n\s+at /);
    expect(dead.finishedAt).toEqual(clock.now());
  });

  it('deadLetter gives up at once', async () => {
    const { id } = await enqueue(db, 'k', {});
    await deadLetter(db, (await claim('w'))!, 'unrecoverable');
    expect(await db.job.findUniqueOrThrow({ where: { id } })).toMatchObject({ state: 'dead', lastError: 'unrecoverable', attempts: 1 });
  });

  it('doubles the delay per attempt up to the cap', () => {
    expect([1, 2, 3, 4, 10].map((attempts) => retryDelayMs(attempts, backoff))).toEqual([1_000, 2_000, 3_000, 3_000, 3_000]);
  });
});

describe('listJobs and queueDepth', () => {
  it('report jobs by state and kind', async () => {
    await enqueue(db, 'a', {}, { now: clock.now });
    await enqueue(db, 'a', {}, { now: clock.now });
    await enqueue(db, 'b', {}, { now: clock.now });
    await complete(db, (await claim('w'))!, null);
    expect(await queueDepth(db)).toEqual({ queued: 2, running: 0, succeeded: 1, dead: 0 });
    expect(await queueDepth(db, { kind: 'b' })).toMatchObject({ queued: 1 });
    expect(await listJobs(db, { kind: 'a' })).toHaveLength(2);
    expect(await listJobs(db, { state: 'succeeded' })).toHaveLength(1);
  });
});
