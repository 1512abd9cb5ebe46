import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { enqueue } from './enqueue.ts';
import { runWorker } from './run-worker.ts';
import { waitFor } from '../../test/fixtures/wait-for.ts';
import { limitMs, SQLITE_BUSY_MS, WORKER_START_MS } from '../../test/budgets.ts';

const CHILD = fileURLToPath(new URL('../../test/fixtures/worker-child.ts', import.meta.url));
const LEASE_MS = 1_500;
// The child starting up (a worker process: Node, tsx, its first query), then its claim, which may wait
// SQLite's busy timeout for the file's lock.
const CHILD_CLAIMED_MS = limitMs(WORKER_START_MS, SQLITE_BUSY_MS);
// The rescuer waits for the dead worker's lease to run out, then claims and completes the job: two writes,
// each of which may wait SQLite's busy timeout for the file's lock.
const RESCUED_MS = limitMs(LEASE_MS, 2 * SQLITE_BUSY_MS);

let testDb: TestDb;
let child: ChildProcess | undefined;

beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await testDb.cleanup();
});

it('reclaims the job of a worker killed with SIGKILL and completes it exactly once', async () => {
  const { db, url } = testDb;
  const { id } = await enqueue(db, 'slow', { task: 'survive a crash' });

  const childOutput: string[] = [];
  child = spawn(process.execPath, ['--import', 'tsx', CHILD, url, 'doomed-child', String(LEASE_MS)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => childOutput.push(String(chunk)));
  child.stderr?.on('data', (chunk) => childOutput.push(String(chunk)));
  const exited = new Promise((resolve) => child?.once('exit', resolve));

  await waitFor(async () => {
    const job = await db.job.findUniqueOrThrow({ where: { id } });
    return job.state === 'running' && job.leaseOwner === 'doomed-child';
  }, CHILD_CLAIMED_MS).catch((error: unknown) => {
    throw new Error(`child never claimed the job: ${childOutput.join('')}`, { cause: error });
  });
  const { leaseExpiresAt } = await db.job.findUniqueOrThrow({ where: { id } });
  child.kill('SIGKILL');
  await exited;

  const runs: string[] = [];
  const stop = new AbortController();
  const rescuer = runWorker({
    db,
    workerId: 'rescuer',
    leaseMs: LEASE_MS,
    pollMs: 50,
    signal: stop.signal,
    handlers: {
      slow: async (payload: { task: string }) => {
        runs.push(payload.task);
        return 'finished by the rescuer';
      },
    },
  });
  const done = await waitFor(async () => {
    const job = await db.job.findUniqueOrThrow({ where: { id } });
    return job.state === 'succeeded' && job;
  }, RESCUED_MS);
  stop.abort();
  await rescuer;

  expect(runs).toEqual(['survive a crash']);
  expect(done).toMatchObject({ attempts: 2, result: '"finished by the rescuer"', leaseOwner: null });
  // The rescuer claimed it only once the dead worker's lease had run out (its heartbeats stopped).
  const rescued = await db.job.findUniqueOrThrow({ where: { id } });
  expect(rescued.finishedAt!.getTime()).toBeGreaterThanOrEqual(leaseExpiresAt!.getTime());
  expect(await db.job.count()).toBe(1);
});
