import { describe, expect } from 'vitest';
import type { Db } from '../db/client.ts';
import { fileDbTest } from '../../test/fixtures/test.ts';
import { claimJob } from './claim.ts';
import { enqueue } from './enqueue.ts';
import { runWorker, type WorkerOptions } from './run-worker.ts';
import { waitFor } from '../../test/fixtures/wait-for.ts';
import { limitMs, SQLITE_BUSY_MS, UNBUDGETED_STEP_MS } from '../../test/budgets.ts';

fileDbTest.beforeEach(({ db }) => db.job.deleteMany());

const silent = () => {};
const POLL_MS = 20;
// One queue write (a claim, heartbeat, completion or failure) waits at most SQLite's busy timeout for the
// file's lock, or, on PostgreSQL, which sets no statement timeout, the unbudgeted-step allowance.
const QUEUE_WRITE_MS = Math.max(SQLITE_BUSY_MS, UNBUDGETED_STEP_MS);
// A worker getting through `writes` queue writes one after the other, each after at most one poll, and
// `workMs` of handler and backoff time in a row.
const settledMs = (writes: number, workMs = 0) => limitMs(writes * (POLL_MS + QUEUE_WRITE_MS), workMs);

/** Runs a worker until `done` resolves, then stops it and waits for it to settle. */
async function workUntil(db: Db, options: Omit<WorkerOptions, 'db' | 'signal'>, done: () => Promise<unknown>): Promise<void> {
  const stop = new AbortController();
  const worker = runWorker({ db, pollMs: POLL_MS, logError: silent, ...options, signal: stop.signal });
  try {
    await done();
  } finally {
    stop.abort();
    await worker;
  }
}

const jobState = (db: Db, id: string) => db.job.findUniqueOrThrow({ where: { id } });

describe('runWorker', () => {
  fileDbTest('gives handlers the parsed payload and stores their result as JSON', async ({ db }) => {
    const { id } = await enqueue(db, 'add', { a: 2, b: 3 });
    await workUntil(db, { handlers: { add: async ({ a, b }: { a: number; b: number }) => ({ sum: a + b }) } }, () =>
      // A claim and a completion.
      waitFor(async () => (await jobState(db, id)).state === 'succeeded', settledMs(2)),
    );
    expect(await jobState(db, id)).toMatchObject({ result: '{"sum":5}', attempts: 1, leaseOwner: null });
  });

  fileDbTest('keeps the message and stack of a handler error and dead-letters after the last attempt', async ({ db }) => {
    const { id } = await enqueue(db, 'explode', {}, { maxAttempts: 2 });
    const backoff = { baseMs: 10, maxMs: 10 };
    await workUntil(db, { handlers: { explode: async () => Promise.reject(new TypeError('wires crossed')) }, backoff }, () =>
      // Two claims and two failures, with one backoff between them.
      waitFor(async () => (await jobState(db, id)).state === 'dead', settledMs(4, backoff.maxMs)),
    );
    const job = await jobState(db, id);
    expect(job.attempts).toBe(2);
    expect(job.lastError).toMatch(/^TypeError: wires crossed\n\s+at /);
  });

  fileDbTest('does not retry an error that says another attempt would fail the same way (a build failure)', async ({ db }) => {
    const { id } = await enqueue(db, 'build', {}, { maxAttempts: 3 });
    const backoff = { baseMs: 10, maxMs: 10 };
    const deterministic = Object.assign(new Error("base image 'python:3.12' is not available on this machine"), { deterministic: true });
    let calls = 0;
    await workUntil(
      db,
      {
        handlers: {
          build: async () => {
            calls++;
            throw deterministic;
          },
        },
        backoff,
      },
      // A claim and a dead-lettering.
      () => waitFor(async () => (await jobState(db, id)).state === 'dead', settledMs(2)),
    );
    expect(calls).toBe(1);
    expect((await jobState(db, id)).attempts).toBe(1);
    expect((await jobState(db, id)).lastError).toContain("base image 'python:3.12' is not available");
  });

  fileDbTest('dead-letters a job of a kind it has no handler for', async ({ db }) => {
    const { id } = await enqueue(db, 'mystery', {});
    // A claim and a dead-lettering.
    await workUntil(db, { handlers: { known: async () => null } }, () => waitFor(async () => (await jobState(db, id)).state === 'dead', settledMs(2)));
    expect((await jobState(db, id)).lastError).toContain('No handler for job kind "mystery"');
  });

  fileDbTest('runs up to `concurrency` jobs at once', async ({ db }) => {
    await Promise.all([1, 2, 3].map((n) => enqueue(db, 'wait', { n })));
    const handlerMs = 150;
    let running = 0;
    let peak = 0;
    const handlers = {
      wait: async () => {
        peak = Math.max(peak, ++running);
        await new Promise((resolve) => setTimeout(resolve, handlerMs));
        running--;
      },
    };
    // Three claims and three completions; two rounds of handlers, two at a time.
    const allSettledMs = settledMs(6, 2 * handlerMs);
    await workUntil(db, { handlers, concurrency: 2 }, () => waitFor(async () => (await db.job.count({ where: { state: 'succeeded' } })) === 3, allSettledMs));
    expect(peak).toBe(2);
  });

  fileDbTest('heartbeats so a handler outliving its lease keeps the job', async ({ db }) => {
    const { id } = await enqueue(db, 'long', {});
    const leaseMs = 300;
    const handlerMs = leaseMs * 3;
    // A claim, a heartbeat every third of the lease while the handler runs, the competitor's claim, a completion.
    const heartbeats = Math.ceil(handlerMs / Math.floor(leaseMs / 3));
    const succeededMs = settledMs(1 + heartbeats + 1 + 1, handlerMs);
    await workUntil(
      db,
      {
        leaseMs,
        handlers: {
          long: async () => {
            await new Promise((resolve) => setTimeout(resolve, handlerMs));
            return claimJob(db, { workerId: 'competitor', leaseMs });
          },
        },
      },
      () => waitFor(async () => (await jobState(db, id)).state === 'succeeded', succeededMs),
    );
    expect(await jobState(db, id)).toMatchObject({ attempts: 1, result: 'null' });
  });

  fileDbTest('on abort, lets in-flight handlers stop and releases their jobs without counting the attempt', async ({ db }) => {
    const { id } = await enqueue(db, 'interruptible', {});
    const stop = new AbortController();
    const worker = runWorker({
      db,
      pollMs: POLL_MS,
      logError: silent,
      signal: stop.signal,
      handlers: {
        interruptible: (_payload, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')))),
      },
    });
    await waitFor(async () => (await jobState(db, id)).state === 'running', settledMs(1)); // a claim
    stop.abort();
    await worker;
    expect(await jobState(db, id)).toMatchObject({ state: 'queued', attempts: 0, leaseOwner: null });
  });
});
