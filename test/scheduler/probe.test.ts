// Probes against real containers: 8 simulated rollouts of a shipped seed are stored with attempt
// numbers 1–8 and counted into their group; timed-out rollouts are scored low and counted; a
// retried probe job resumes its group instead of running another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { importPath } from '../../lib/env/import.ts';
import { OraclePolicy } from '../../lib/rollout/policies/oracle.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { evaluateHeldOutSet, holdOut, policyNamed, probeVersion, trainableEnvironments } from '../../lib/scheduler/index.ts';

let testDb: TestDb;
let seedVersionId: string;
const sandbox = new DockerSandbox();

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
  const [imported] = await importPath(testDb.db, 'examples/tasks/seed-logs-awk');
  if (!imported?.ok || !imported.versionId) throw new Error(`import failed: ${JSON.stringify(imported)}`);
  seedVersionId = imported.versionId;
});
afterAll(() => testDb.cleanup());

describe('probeVersion', () => {
  it('stores 8 simulated trajectories with attempt numbers 1–8 and counts them into the group', async () => {
    const summary = await probeVersion({ db: testDb.db, sandbox }, { versionId: seedVersionId, policy: policyNamed('simulated'), size: 8, concurrency: 4 });
    const rollouts = await testDb.db.rollout.findMany({ where: { groupId: summary.groupId }, orderBy: { attempt: 'asc' } });
    expect(rollouts.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(new Set(rollouts.map((r) => r.seed)).size).toBe(8);
    for (const r of rollouts) {
      expect(r).toMatchObject({ versionId: seedVersionId, policy: 'simulated', simulated: true, status: 'completed' });
      expect(r.imageId).toMatch(/^sha256:/);
      expect(r.turns).toBeGreaterThan(1);
      expect(await testDb.db.trajectoryStep.count({ where: { rolloutId: r.id } })).toBeGreaterThan(r.turns);
    }
    const passed = rollouts.filter((r) => r.passed).length;
    expect(summary).toMatchObject({ state: 'complete', size: 8, completed: 8, passes: passed, errors: 0 });
    expect(await testDb.db.probeGroup.findUniqueOrThrow({ where: { id: summary.groupId } })).toMatchObject({
      passes: passed,
      completed: 8,
      simulated: true,
      purpose: 'probe',
    });
  });

  it('scores timed-out rollouts with the low reward and counts them, never drops them', async () => {
    const summary = await probeVersion(
      { db: testDb.db, sandbox },
      { versionId: seedVersionId, policy: new OraclePolicy(), size: 2, concurrency: 2, agentTimeoutSec: 0.001 },
    );
    const rollouts = await testDb.db.rollout.findMany({ where: { groupId: summary.groupId } });
    expect(rollouts).toHaveLength(2);
    for (const r of rollouts) expect(r).toMatchObject({ status: 'timed-out', timedOut: true, reward: 0, passed: false });
    expect(summary).toMatchObject({ state: 'complete', completed: 2, timeouts: 2, passes: 0 });
  });

  it('resumes the group of a retried job instead of starting another', async () => {
    const request = { versionId: seedVersionId, policy: new OraclePolicy(), size: 2, concurrency: 2, jobId: 'job-retried' };
    const first = await probeVersion({ db: testDb.db, sandbox }, request);
    const second = await probeVersion({ db: testDb.db, sandbox }, request);
    expect(second.groupId).toBe(first.groupId);
    expect(second.rolloutIds).toEqual(first.rolloutIds);
    expect(await testDb.db.rollout.count({ where: { groupId: first.groupId } })).toBe(2);
    expect(second).toMatchObject({ passes: 2, completed: 2 });
  });

  it('evaluates a held-out set: pass rate with every version and the image it ran on, and never serves it', async () => {
    await testDb.db.lineage.create({
      data: { name: 'eval lineage', seedVersionId, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1 },
    });
    await holdOut(testDb.db, { set: 'eval-oracle', versionIds: [seedVersionId] });
    expect((await trainableEnvironments(testDb.db)).environments).toEqual([]);
    const report = await evaluateHeldOutSet(
      { db: testDb.db, sandbox },
      { set: 'eval-oracle', policy: new OraclePolicy(), attempts: 2, concurrency: 2, passThreshold: 1 },
    );
    expect(report).toMatchObject({ set: 'eval-oracle', policy: 'oracle', simulated: false, passes: 2, rollouts: 2, passRate: 1 });
    expect(report.versions).toHaveLength(1);
    expect(report.versions[0]).toMatchObject({ versionId: seedVersionId, name: 'seed-logs-awk', passes: 2, size: 2 });
    expect(report.versions[0]!.imageIds).toEqual([expect.stringMatching(/^sha256:/)]);
    expect(await testDb.db.probeGroup.findUniqueOrThrow({ where: { id: report.versions[0]!.groupId } })).toMatchObject({
      purpose: 'eval',
      evalSet: 'eval-oracle',
    });
    await expect(
      evaluateHeldOutSet({ db: testDb.db, sandbox }, { set: 'no-such-set', policy: new OraclePolicy(), attempts: 1, concurrency: 1, passThreshold: 1 }),
    ).rejects.toThrow(/no environment versions/);
  });
});
