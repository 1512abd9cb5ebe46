import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { claimJob } from './claim.ts';
import { enqueue } from './enqueue.ts';
import { runWorker, type WorkerOptions } from './run-worker.ts';
import { waitFor } from '../../test/fixtures/wait-for.ts';

let testDb: TestDb;
let db: Db;

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
});
afterAll(() => testDb.cleanup());
beforeEach(() => db.job.deleteMany());

const silent = () => {};

/** Runs a worker until `done` resolves, then stops it and waits for it to settle. */
async function workUntil(options: Omit<WorkerOptions, 'db' | 'signal'>, done: () => Promise<unknown>): Promise<void> {
  const stop = new AbortController();
  const worker = runWorker({ db, pollMs: 20, logError: silent, ...options, signal: stop.signal });
  try {
    await done();
  } finally {
    stop.abort();
    await worker;
  }
}

const jobState = (id: string) => db.job.findUniqueOrThrow({ where: { id } });

describe('runWorker', () => {
  it('gives handlers the parsed payload and stores their result as JSON', async () => {
    const { id } = await enqueue(db, 'add', { a: 2, b: 3 });
    await workUntil({ handlers: { add: async ({ a, b }: { a: number; b: number }) => ({ sum: a + b }) } }, () =>
      waitFor(async () => (await jobState(id)).state === 'succeeded'),
    );
    expect(await jobState(id)).toMatchObject({ result: '{"sum":5}', attempts: 1, leaseOwner: null });
  });

  it('keeps the message and stack of a handler error and dead-letters after the last attempt', async () => {
    const { id } = await enqueue(db, 'explode', {}, { maxAttempts: 2 });
    const backoff = { baseMs: 10, maxMs: 10 };
    await workUntil({ handlers: { explode: async () => Promise.reject(new TypeError('wires crossed')) }, backoff }, () =>
      waitFor(async () => (await jobState(id)).state === 'dead'),
    );
    const job = await jobState(id);
    expect(job.attempts).toBe(2);
    expect(job.lastError).toMatch(/^TypeError: wires crossed\n\s+at /);
  });

  it('does not retry an error that says another attempt would fail the same way (a build failure)', async () => {
    const { id } = await enqueue(db, 'build', {}, { maxAttempts: 3 });
    const backoff = { baseMs: 10, maxMs: 10 };
    const deterministic = Object.assign(new Error("base image 'python:3.12' is not available on this machine"), { deterministic: true });
    let calls = 0;
    await workUntil(
      {
        handlers: {
          build: async () => {
            calls++;
            throw deterministic;
          },
        },
        backoff,
      },
      () => waitFor(async () => (await jobState(id)).state === 'dead'),
    );
    expect(calls).toBe(1);
    expect((await jobState(id)).attempts).toBe(1);
    expect((await jobState(id)).lastError).toContain("base image 'python:3.12' is not available");
  });

  it('dead-letters a job of a kind it has no handler for', async () => {
    const { id } = await enqueue(db, 'mystery', {});
    await workUntil({ handlers: { known: async () => null } }, () => waitFor(async () => (await jobState(id)).state === 'dead'));
    expect((await jobState(id)).lastError).toContain('No handler for job kind "mystery"');
  });

  it('runs up to `concurrency` jobs at once', async () => {
    await Promise.all([1, 2, 3].map((n) => enqueue(db, 'wait', { n })));
    let running = 0;
    let peak = 0;
    const handlers = {
      wait: async () => {
        peak = Math.max(peak, ++running);
        await new Promise((resolve) => setTimeout(resolve, 150));
        running--;
      },
    };
    await workUntil({ handlers, concurrency: 2 }, () => waitFor(async () => (await db.job.count({ where: { state: 'succeeded' } })) === 3));
    expect(peak).toBe(2);
  });

  it('heartbeats so a handler outliving its lease keeps the job', async () => {
    const { id } = await enqueue(db, 'long', {});
    const leaseMs = 300;
    await workUntil(
      {
        leaseMs,
        handlers: {
          long: async () => {
            await new Promise((resolve) => setTimeout(resolve, leaseMs * 3));
            return claimJob(db, { workerId: 'competitor', leaseMs });
          },
        },
      },
      () => waitFor(async () => (await jobState(id)).state === 'succeeded'),
    );
    expect(await jobState(id)).toMatchObject({ attempts: 1, result: 'null' });
  });

  it('on abort, lets in-flight handlers stop and releases their jobs without counting the attempt', async () => {
    const { id } = await enqueue(db, 'interruptible', {});
    const stop = new AbortController();
    const worker = runWorker({
      db,
      pollMs: 20,
      logError: silent,
      signal: stop.signal,
      handlers: {
        interruptible: (_payload, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')))),
      },
    });
    await waitFor(async () => (await jobState(id)).state === 'running');
    stop.abort();
    await worker;
    expect(await jobState(id)).toMatchObject({ state: 'queued', attempts: 0, leaseOwner: null });
  });
});
