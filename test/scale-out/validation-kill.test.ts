// `kill -9` of a real worker process in the middle of a validation: the job is retried after its
// lease by another worker, the container the dead worker left is reaped (its lease label no longer
// matches a held lease), and the verdicts are recorded once.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { waitFor } from '../fixtures/wait-for.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { enqueueValidation } from '../../lib/validate/jobs.ts';
import { helloTask } from '../sandbox/fixtures.ts';
import { buildMs, DOCKER_REMOVAL_MS, limitMs, taskBudgets, validationMs, WORKER_START_MS } from '../budgets.ts';

const sandbox = new DockerSandbox();
let testDb: TestDb;
const workers: ChildProcess[] = [];
const LEASE_SEC = 3;
const REAP_SEC = 1;

// The oracle takes a while, so the worker is killed while its container runs.
const SLOW_HELLO = helloTask({ 'solution/solve.sh': '#!/bin/bash\nsleep 20\necho hello > /app/out.txt\n' });
const TASK = taskBudgets(SLOW_HELLO);
// The first worker builds the image and starts the oracle; after the lease runs out the second validates the
// task again; its reaper removes the dead worker's container once the lease is gone.
// Each worker's start-up (WORKER_START_MS) and Docker's removal of a container (DOCKER_REMOVAL_MS) are the
// allowances test/budgets.ts keeps for the steps no product budget bounds.
const ORACLE_STARTED_MS = limitMs(WORKER_START_MS, buildMs(TASK));
const RETRIED_MS = limitMs(WORKER_START_MS, LEASE_SEC * 1000, validationMs(TASK));
const REAPED_MS = limitMs((LEASE_SEC + REAP_SEC) * 1000, DOCKER_REMOVAL_MS);

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
});
afterAll(async () => {
  for (const worker of workers) worker.kill('SIGKILL');
  await testDb.cleanup();
});

function startWorker(): ChildProcess {
  const worker = spawn(process.execPath, ['bin/envolve.mjs', 'worker', '--concurrency', '1'], {
    env: {
      ...process.env,
      DATABASE_URL: testDb.url,
      ENVOLVE_WORKER_LEASE_SEC: String(LEASE_SEC),
      ENVOLVE_WORKER_REAP_SEC: String(REAP_SEC),
      ENVOLVE_WARM_POOL: '0',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  worker.stderr?.on('data', () => {}); // its log; the test reads the database and the engine
  workers.push(worker);
  return worker;
}

const containersOf = (jobId: string) => sandbox.docker.listContainers({ all: true, filters: { label: [`envolve.job=${jobId}`] } });

it(
  'retries the validation of a killed worker elsewhere, reaps its container and records each verdict once',
  async () => {
    const { db } = testDb;
    const versionId = await storeBundle(db, { ...SLOW_HELLO, name: 'slow-hello' }, { source: 'import' });
    const job = await enqueueValidation(db, versionId);

    const doomed = startWorker();
    const [orphan] = await waitFor(async () => {
      const running = (await containersOf(job.id)).filter((c) => c.State === 'running' && c.Labels['envolve.lease']);
      const oracleRunning = running.length > 0 && (await db.validatorRun.count({ where: { jobId: job.id, kind: 'oracle' } })) === 0;
      return oracleRunning ? running : null;
    }, ORACLE_STARTED_MS);
    doomed.kill('SIGKILL');

    startWorker();
    const done = await waitFor(async () => {
      const row = await db.job.findUniqueOrThrow({ where: { id: job.id } });
      return row.state === 'succeeded' ? row : null;
    }, RETRIED_MS);
    expect(done.attempts).toBe(2);
    await waitFor(async () => !(await containersOf(job.id)).some((c) => c.Id === orphan!.Id), REAPED_MS);

    const runs = await db.validatorRun.findMany({ where: { versionId } });
    expect(runs.map((r) => r.kind).sort()).toEqual(['invalid-test', 'oracle']);
    expect(runs.every((r) => r.verdict === 'passed')).toBe(true);
  },
  ORACLE_STARTED_MS + RETRIED_MS + REAPED_MS,
);
