// Fault tests on PostgreSQL with real worker processes: two share a burst, one is killed with
// SIGKILL mid-job, and the server restarts while they run. Every job is settled exactly once.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createTestDb, testProvider, type TestDb } from '../fixtures/db.ts';
import { enqueue } from '../../lib/queue/enqueue.ts';
import { longestRetryDelayMs, STRANDED_AFTER_MS } from '../../lib/queue/pg-boss-queue.ts';
import { SETTLE_RETRY_DELAYS_MS } from '../../lib/queue/run-worker.ts';
import { limitMs, UNBUDGETED_STEP_MS } from '../budgets.ts';
import { waitFor } from '../fixtures/wait-for.ts';

const CHILD = fileURLToPath(new URL('./fault-worker-child.ts', import.meta.url));
const LEASE_MS = 2_000;
const JOBS = 40;
// Each job's handler takes this long; the workers retry failed jobs after this backoff.
const JOB_MS = 400;
const BACKOFF_MS = 1_000;
// pg_ctl waits this long for the restarted server (PGCTLTIMEOUT's default), then reports failure.
const PG_RESTART_MS = 60_000;

// The limits below take the worst case of one job at a time, so they hold however the jobs are spread.
const ALL_JOBS_MS = JOBS * JOB_MS;
// A worker starts (a process: UNBUDGETED_STEP_MS) and gets through at least five jobs.
const FIRST_JOBS_LIMIT_MS = limitMs(UNBUDGETED_STEP_MS, ALL_JOBS_MS, UNBUDGETED_STEP_MS);
// After the restart the test's own connection pool reconnects.
const RECONNECT_LIMIT_MS = limitMs(UNBUDGETED_STEP_MS);
// The rest: the late joiner starts; the killed worker's leases expire and those jobs wait out pg-boss's
// backoff; a result whose settle the restart cut off is retried for SETTLE_RETRY_DELAYS_MS; a delivery
// lost in the restart is re-forwarded after STRANDED_AFTER_MS; then the jobs left run, with the reruns the
// test allows (fewer than JOBS more).
const ALL_SETTLED_LIMIT_MS = limitMs(
  UNBUDGETED_STEP_MS,
  LEASE_MS,
  longestRetryDelayMs({ baseMs: BACKOFF_MS, maxMs: BACKOFF_MS }, 1),
  SETTLE_RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0),
  STRANDED_AFTER_MS,
  2 * ALL_JOBS_MS,
  UNBUDGETED_STEP_MS,
);
const TEST_LIMIT_MS = FIRST_JOBS_LIMIT_MS + limitMs(PG_RESTART_MS) + RECONNECT_LIMIT_MS + ALL_SETTLED_LIMIT_MS;
let testDb: TestDb;
const children: ChildProcess[] = [];
// Each worker's stderr, shown when the test fails (connection errors while the server restarts are expected).
const workerOutput: string[] = [];

beforeAll(async () => {
  if (testProvider() === 'postgresql') testDb = await createTestDb();
});
afterEach(({ task }) => {
  if (task.result?.state === 'fail') console.error(`worker output:\n${workerOutput.join('').slice(-8_000)}`);
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await testDb?.cleanup();
});

function startWorker(workerId: string, runLog: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, testDb.url, workerId, String(LEASE_MS), runLog, String(JOB_MS), String(BACKOFF_MS)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk) => workerOutput.push(`[${workerId}] ${chunk}`));
  child.on('exit', (code, signal) => workerOutput.push(`[${workerId}] exited (${signal ?? code})\n`));
  children.push(child);
  return child;
}

// The cluster the test database lives on (scripts/prereqs.sh postgres started it).
function restartPostgres(): void {
  const clusters = spawnSync('pg_lsclusters', ['-h'], { encoding: 'utf8' }).stdout.trim().split('\n')[0]?.split(/\s+/) ?? [];
  const run = spawnSync('pg_ctlcluster', [clusters[0] ?? '15', clusters[1] ?? 'main', 'restart'], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`pg_ctlcluster restart failed: ${run.stderr}`);
}

it.runIf(testProvider() === 'postgresql')(
  'two workers share a burst; one killed mid-job and a server restart lose nothing and settle every job once',
  async () => {
    const { db } = testDb;
    const runLog = path.join(mkdtempSync(path.join(tmpdir(), 'envolve-fault-')), 'runs.log');
    writeFileSync(runLog, '');
    const jobs = await Promise.all(Array.from({ length: JOBS }, (_, n) => enqueue(db, 'work', { n })));
    const doomed = startWorker('doomed', runLog);
    startWorker('survivor', runLog);

    // Kill the first worker while it holds a job.
    await waitFor(
      async () =>
        (await db.job.count({ where: { state: 'running', leaseOwner: 'doomed' } })) > 0 && (await db.job.count({ where: { state: 'succeeded' } })) >= 5,
      FIRST_JOBS_LIMIT_MS,
    );
    doomed.kill('SIGKILL');
    const orphaned = await db.job.findMany({ where: { state: 'running', leaseOwner: 'doomed' } });

    restartPostgres();
    await waitFor(
      () =>
        db.job
          .count()
          .then(() => true)
          .catch(() => false),
      RECONNECT_LIMIT_MS,
    );
    startWorker('late-joiner', runLog);

    await waitFor(async () => (await db.job.count({ where: { state: 'succeeded' } })) === JOBS, ALL_SETTLED_LIMIT_MS);
    const rows = await db.job.findMany();
    expect(rows).toHaveLength(JOBS);
    expect(rows.every((row) => row.state === 'succeeded' && row.leaseOwner === null)).toBe(true);
    // Every job's result names one worker's run of that very job.
    expect(rows.map((row) => JSON.parse(row.result!).n).sort((a, b) => a - b)).toEqual(jobs.map((_, n) => n));
    // The killed worker's jobs were retried after its lease, by another worker.
    for (const job of orphaned) {
      const row = rows.find((r) => r.id === job.id)!;
      expect(row.attempts).toBeGreaterThanOrEqual(2);
      expect(JSON.parse(row.result!).by).not.toBe('doomed');
      expect(row.lastError).toContain('Lease of doomed expired');
    }
    // At-least-once delivery: only jobs cut off by the kill (or the restart) ran more than once.
    const runs = readFileSync(runLog, 'utf8').trim().split('\n');
    expect(runs.length).toBeGreaterThanOrEqual(JOBS);
    expect(runs.length).toBeLessThanOrEqual(JOBS + orphaned.length + 4);
  },
  TEST_LIMIT_MS,
);
