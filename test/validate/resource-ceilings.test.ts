// A task asking more than the deployment's ceilings validates with the ceilings, in a real
// container: the verifier itself reads the memory limit the kernel enforces, and the run records
// what the task asked beside what it got.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../../lib/config/settings.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { DockerSandbox, drainAllWarmPools, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { validateEnvironment } from '../../lib/validate/validate-environment.ts';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { helloTask } from '../sandbox/fixtures.ts';

let testDb: TestDb;
const sandbox = new DockerSandbox();

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
});
afterAll(async () => {
  await drainAllWarmPools();
  await testDb.cleanup();
});

const MIB = 1024 * 1024;

describe('resource ceilings on a real validation', () => {
  it('runs a task asking 100000 CPUs, four times the memory ceiling and a 1e7 s agent budget with the ceilings, and records asked and used', async () => {
    const ceilings = settings().sandbox.ceilings;
    const askedMemoryMb = ceilings.memoryMb * 4;
    const askedAgentSec = 1e7;
    // Full marks only when the hello is written and the container's memory limit is the ceiling
    // (cgroup v2's memory.max or v1's memory.limit_in_bytes, whichever the engine's host has).
    const test = `#!/bin/bash
limit=$(cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes)
echo "memory limit: $limit"
if [ "$(cat /app/out.txt 2>/dev/null)" = hello ] && [ "$limit" = "${ceilings.memoryMb * MIB}" ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
`;
    const toml = [
      '[agent]',
      `timeout_sec = ${askedAgentSec}`,
      '[verifier]',
      'timeout_sec = 60',
      '[environment]',
      'cpus = 100000',
      `memory_mb = ${askedMemoryMb}`,
      '',
    ].join('\n');
    const versionId = await storeBundle(testDb.db, helloTask({ 'task.toml': toml, 'tests/test.sh': test }), { source: 'import' });
    const runs = await validateEnvironment({ db: testDb.db, sandbox, versionId });
    const oracle = runs.find((r) => r.kind === 'oracle')!;
    const nop = runs.find((r) => r.kind === 'invalid-test')!;
    expect(oracle.verifierLog).toContain(`memory limit: ${ceilings.memoryMb * MIB}`);
    expect(oracle).toMatchObject({ verdict: 'passed', reward: 1 });
    expect(nop).toMatchObject({ verdict: 'passed', reward: 0 });

    const containment = JSON.parse(oracle.containment!);
    expect(containment.limits).toMatchObject({ cpus: ceilings.cpus, memoryMb: ceilings.memoryMb });
    expect(containment.resources).toMatchObject({
      cpus: { asked: 100000, used: ceilings.cpus, ceiling: ceilings.cpus },
      memoryMb: { asked: askedMemoryMb, used: ceilings.memoryMb, ceiling: ceilings.memoryMb },
      agentTimeoutSec: { asked: askedAgentSec, used: ceilings.agentTimeoutSec, ceiling: ceilings.agentTimeoutSec },
      verifierTimeoutSec: { asked: 60, used: 60 },
    });
  });
});
