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
import { waitFor } from '../fixtures/wait-for.ts';

const CHILD = fileURLToPath(new URL('./fault-worker-child.ts', import.meta.url));
const LEASE_MS = 2_000;
const JOBS = 40;
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
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, testDb.url, workerId, String(LEASE_MS), runLog], { stdio: ['ignore', 'ignore', 'pipe'] });
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
      180_000,
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
      30_000,
    );
    startWorker('late-joiner', runLog);

    await waitFor(async () => (await db.job.count({ where: { state: 'succeeded' } })) === JOBS, 180_000);
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
  480_000,
);
