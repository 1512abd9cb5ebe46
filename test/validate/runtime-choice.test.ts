// The sandbox runtime a lineage or an environment chooses, against the real engine (runsc is
// registered by scripts/prereqs.sh; the adversarial suite fails without it). The task's own
// oracle tells the kernels apart: gVisor's dmesg starts with "Starting gVisor", runc's is refused
// to the unprivileged agent, so the oracle passes only where gVisor really ran it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { findOrCreateLineage } from '../../lib/evolution/lineage.ts';
import { createLogger } from '../../lib/log/logger.ts';
import { claimJob } from '../../lib/queue/claim.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { drainAllWarmPools } from '../../lib/sandbox/warm-pool.ts';
import { enqueueValidation } from '../../lib/validate/jobs.ts';
import { VALIDATE_JOB } from '../../lib/validate/jobs.ts';
import { jobHandlers } from '../../workers/worker-process.ts';
import { helloTask } from '../sandbox/fixtures.ts';

let testDb: TestDb;
const sandbox = new DockerSandbox();
const silent = createLogger({ level: 'error', format: 'pretty', write: () => {} });

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
});
afterAll(async () => {
  await drainAllWarmPools();
  await testDb.cleanup();
});

const KERNEL_PROBE = '#!/bin/bash\nif dmesg 2>/dev/null | grep -q "Starting gVisor"; then echo gvisor; else echo host; fi > /app/out.txt\n';
const EXPECT_GVISOR = '#!/bin/bash\nif [ "$(cat /app/out.txt 2>/dev/null)" = gvisor ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n';

function taskAsking(runtime: 'runc' | 'runsc') {
  return helloTask({
    // A fresh name per run: the version (a content hash) and its lineage are this test's own.
    'instruction.md': `Write which kernel runs you to /app/out.txt. (${randomUUID()})\n`,
    'task.toml': `[agent]\ntimeout_sec = 120\n[verifier]\ntimeout_sec = 120\n[environment]\nsandbox_runtime = "${runtime}"\n`,
    'solution/solve.sh': KERNEL_PROBE,
    'tests/test.sh': EXPECT_GVISOR,
  });
}

describe('a lineage created with runsc', () => {
  it('runs its validation job under gVisor, and the task asking for runc does not lower it', async () => {
    const { db } = testDb;
    const versionId = await storeBundle(db, taskAsking('runc'), { source: 'import' });
    await findOrCreateLineage(db, versionId, {
      axisPolicy: { kind: 'round-robin' },
      effort: 'low',
      synthesiser: 'procedural',
      seed: 7,
      sandboxRuntime: 'runsc',
    });
    await enqueueValidation(db, versionId);
    const job = await claimJob(db, { workerId: 'runtime-test', leaseMs: 600_000 });
    expect(job?.kind).toBe(VALIDATE_JOB);
    const handler = jobHandlers(db, sandbox, 'runtime-test', silent)[VALIDATE_JOB]!;
    await handler(JSON.parse(job!.payload), { job: job!, signal: new AbortController().signal });

    const runs = await db.validatorRun.findMany({ where: { versionId }, orderBy: { kind: 'asc' } });
    expect(runs.map((r) => [r.kind, r.sandboxRuntime])).toEqual([
      ['invalid-test', 'runsc'],
      ['oracle', 'runsc'],
    ]);
    const oracle = runs.find((r) => r.kind === 'oracle')!;
    expect(oracle, oracle.error ?? oracle.agentLog).toMatchObject({ verdict: 'passed', reward: 1 });
    expect(JSON.parse(oracle.containment ?? '{}')).toMatchObject({ runtime: 'runsc' });
  });
});

describe('an environment whose task.toml requires runsc', () => {
  it('runs its rubric checks under gVisor whatever the caller chose', async () => {
    const files = taskAsking('runsc').files;
    const result = await sandbox.runChecks({ files, runtime: 'runc', checks: [{ id: 'kernel', script: 'dmesg | head -1' }] });
    expect(result.runtime).toBe('runsc');
    expect(result.results[0]?.output).toContain('Starting gVisor');
  });

  it("refuses a multi-container trial, saying the runtime came from the task's own task.toml", async () => {
    const task = taskAsking('runsc');
    task.files.push({ path: 'environment/docker-compose.yaml', content: Buffer.from('services:\n  main:\n    build: .\n'), executable: false });
    await expect(sandbox.runTrial({ bundle: task, imageId: 'unused', agent: { kind: 'oracle' }, agentTimeoutSec: 60, verifierTimeoutSec: 60 })).rejects.toThrow(
      "multi-container tasks run under runc only (runsc is registered without networking), and this trial's runtime is runsc (required by the environment's task.toml)",
    );
  });
});
