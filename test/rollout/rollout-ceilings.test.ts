// A rollout of a task asking more than the deployment's ceilings runs with the ceilings and keeps
// what was asked and what was used in its ATIF extra; a caller's own budget above the ceiling is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../lib/config/settings.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { createPolicy } from '../../lib/rollout/policies/index.ts';
import { runRollout } from '../../lib/rollout/run.ts';
import { DockerSandbox, drainAllWarmPools, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { helloTask } from '../sandbox/fixtures.ts';

const sandbox = new DockerSandbox();
let testDb: TestDb;
let greedy: string;
const ceilings = settings().sandbox.ceilings;

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
  const toml = `[agent]\ntimeout_sec = 1e7\n[verifier]\ntimeout_sec = 60\n[environment]\ncpus = 100000\nmemory_mb = ${ceilings.memoryMb * 2}\n`;
  greedy = await storeBundle(testDb.db, helloTask({ 'task.toml': toml }), { source: 'import' });
});
afterAll(async () => {
  await drainAllWarmPools();
  await testDb.cleanup();
});

describe('rollouts within the ceilings', () => {
  it("runs the oracle with the ceilings and records the task's asks beside them", async () => {
    const summary = await runRollout({ db: testDb.db, sandbox }, { versionId: greedy, policy: createPolicy({ name: 'oracle' }), seed: 1, attempt: 1 });
    expect(summary).toMatchObject({ status: 'completed', reward: 1, passed: true });
    const row = await testDb.db.rollout.findUniqueOrThrow({ where: { id: summary.id } });
    const containment = JSON.parse(row.atif).extra.envolve.containment;
    expect(containment.limits).toMatchObject({ cpus: ceilings.cpus, memoryMb: ceilings.memoryMb });
    expect(containment.resources).toMatchObject({
      cpus: { asked: 100000, used: ceilings.cpus },
      memoryMb: { asked: ceilings.memoryMb * 2, used: ceilings.memoryMb },
      agentTimeoutSec: { asked: 1e7, used: ceilings.agentTimeoutSec },
    });
  });

  it("refuses a caller's own agent budget above the ceiling, naming the setting", async () => {
    const summary = await runRollout(
      { db: testDb.db, sandbox },
      { versionId: greedy, policy: createPolicy({ name: 'nop' }), seed: 1, attempt: 2, agentTimeoutSec: ceilings.agentTimeoutSec + 1 },
    );
    expect(summary.status).toBe('error');
    const row = await testDb.db.rollout.findUniqueOrThrow({ where: { id: summary.id } });
    expect(row.error).toMatch(/ENVOLVE_MAX_AGENT_TIMEOUT_SEC/);
  });
});
