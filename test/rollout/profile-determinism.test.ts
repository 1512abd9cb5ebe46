// The environment's own properties against real containers: determinism (a shipped example has
// none; a task whose tool reads /dev/urandom at run time is caught) and a small latency profile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { importPath } from '../../lib/env/import.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { checkDeterminism } from '../../lib/rollout/determinism.ts';
import { createPolicy } from '../../lib/rollout/policies/index.ts';
import { profileEnvironment } from '../../lib/rollout/profile.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { AGENT_DOCKERFILE, helloTask } from '../sandbox/fixtures.ts';

const sandbox = new DockerSandbox();
let testDb: TestDb;

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
});
afterAll(() => testDb.cleanup());

// The environment ships a "sensor" that reads fresh randomness each time it runs.
const flakyTask = () =>
  helloTask({
    'environment/Dockerfile': `${AGENT_DOCKERFILE.replace('USER agent\n', '')}RUN printf '#!/bin/sh\\nod -An -N4 -tu4 /dev/urandom\\n' > /usr/local/bin/sensor && chmod +x /usr/local/bin/sensor\nUSER agent\n`,
    'solution/solve.sh': '#!/bin/bash\nsensor > /app/reading.txt\necho hello > /app/out.txt\n',
  });

describe('determinism', () => {
  it('a shipped example run twice with the same seed shows no difference', async () => {
    const [imported] = await importPath(testDb.db, 'examples/tasks/seed-logs-awk');
    if (!imported?.ok || !imported.versionId) throw new Error('import failed');
    const report = await checkDeterminism({ db: testDb.db, sandbox }, { versionId: imported.versionId, policy: createPolicy({ name: 'simulated' }), seed: 5 });
    expect(report.differences).toEqual([]);
    expect(report.deterministic).toBe(true);
    expect(report.ignored.join(' ')).toContain('durations');
    const group = await testDb.db.probeGroup.findFirstOrThrow({ where: { purpose: 'determinism', versionId: imported.versionId } });
    expect(group).toMatchObject({ size: 2, completed: 2, state: 'complete' });
  });

  it('an environment that reads randomness at run time is reported, with the differing observation', async () => {
    const versionId = await storeBundle(testDb.db, flakyTask(), { source: 'import' });
    const report = await checkDeterminism({ db: testDb.db, sandbox }, { versionId, policy: createPolicy({ name: 'oracle' }), seed: 1 });
    expect(report.deterministic).toBe(false);
    expect(report.differences).toContainEqual(expect.objectContaining({ where: 'outcome', field: 'changed file /app/reading.txt' }));
    const simulated = await checkDeterminism({ db: testDb.db, sandbox }, { versionId, policy: createPolicy({ name: 'simulated' }), seed: 1 });
    expect(simulated.deterministic).toBe(false);
  });
});

describe('profile', () => {
  it('measures latency at the training concurrency (percentiles only where the sample allows) and a throughput curve, and stores the profile with its groups', async () => {
    const versionId = await storeBundle(testDb.db, helloTask(), { source: 'import' });
    const report = await profileEnvironment(
      { db: testDb.db, sandbox },
      { versionId, policy: createPolicy({ name: 'oracle' }), samples: 3, concurrency: 2, maxConcurrency: 2 },
    );
    expect(report.p50Ms).toBeGreaterThan(0);
    expect(report).toMatchObject({
      concurrency: 2,
      samples: 3,
      p95Ms: null,
      p99Ms: null,
      needMoreSamples: ['p95 needs 20 rollouts (have 3)', 'p99 needs 100 rollouts (have 3)'],
    });
    expect(report.curve[0]).toMatchObject({ concurrency: 1, rollouts: 3, errors: 0 });
    expect(report.curve.length).toBeGreaterThanOrEqual(1);
    expect([1, 2]).toContain(report.concurrencyCeiling);
    const row = await testDb.db.environmentProfile.findUniqueOrThrow({ where: { id: report.profileId } });
    expect(row).toMatchObject({
      versionId,
      imageId: report.imageId,
      policy: 'oracle',
      samples: 3,
      concurrency: 2,
      p50Ms: report.p50Ms,
      p95Ms: null,
      p99Ms: null,
      concurrencyCeiling: report.concurrencyCeiling,
    });
    expect(JSON.parse(row.curve)).toEqual(report.curve);
    const groups = await testDb.db.probeGroup.findMany({ where: { id: { in: report.groupIds } } });
    expect(groups.every((g) => g.purpose === 'profile' && g.state === 'complete')).toBe(true);
    expect(await testDb.db.rollout.count({ where: { groupId: { in: report.groupIds }, passed: true } })).toBe(
      3 + report.curve.reduce((n, p) => n + p.rollouts, 0),
    );
  });
});
