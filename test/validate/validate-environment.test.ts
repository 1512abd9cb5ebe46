// The validators against real containers: a good task validates, a lenient verifier is
// caught by invalid-test, a wrong solution by the oracle, and a retried job records once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import type { TaskBundle } from '../../lib/bundle/bundle.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { validateEnvironment } from '../../lib/validate/validate-environment.ts';
import { helloTask } from '../sandbox/fixtures.ts';

let testDb: TestDb;
const sandbox = new DockerSandbox();

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
});
afterAll(() => testDb.cleanup());

async function validate(bundle: TaskBundle, jobId?: string) {
  const versionId = await storeBundle(testDb.db, bundle, { source: 'import' });
  const runs = await validateEnvironment({ db: testDb.db, sandbox, versionId, jobId });
  return { versionId, byKind: Object.fromEntries(runs.map((r) => [r.kind, r])) };
}

describe('validateEnvironment', () => {
  it('validates a good task: oracle scores 1, nop scores 0, both recorded with image and version', async () => {
    const { versionId, byKind } = await validate(helloTask());
    expect(byKind.oracle).toMatchObject({ verdict: 'passed', reward: 1, expectedReward: 1, versionId });
    expect(byKind['invalid-test']).toMatchObject({ verdict: 'passed', reward: 0, expectedReward: 0, versionId });
    for (const run of Object.values(byKind)) {
      expect(run.imageId).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(JSON.parse(run.containment ?? '{}').networkMode).toBe('none');
    }
    expect(byKind.oracle!.imageId).toBe(byKind['invalid-test']!.imageId);
  });

  it('catches tests that pass on an empty solution with invalid-test', async () => {
    const lenient = helloTask({ 'tests/test.sh': '#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n' });
    const { byKind } = await validate(lenient);
    expect(byKind['invalid-test']).toMatchObject({ verdict: 'failed', reward: 1 });
    expect(byKind['invalid-test']!.error).toMatch(/pass without the task being done/);
  });

  it('catches a wrong solution with the oracle', async () => {
    const wrong = helloTask({ 'solution/solve.sh': '#!/bin/bash\necho goodbye > /app/out.txt\n' });
    const { byKind } = await validate(wrong);
    expect(byKind.oracle).toMatchObject({ verdict: 'failed', reward: 0 });
    expect(byKind['invalid-test']).toMatchObject({ verdict: 'passed' });
  });

  it('reports a verifier that writes no reward as an error, not as 0', async () => {
    const silent = helloTask({ 'tests/test.sh': '#!/bin/bash\necho "checked, but forgot the reward"\n' });
    const { byKind } = await validate(silent);
    expect(byKind.oracle).toMatchObject({ verdict: 'error', status: 'reward-missing', reward: null });
    expect(byKind['invalid-test']).toMatchObject({ verdict: 'error', status: 'reward-missing', reward: null });
  });

  it('records an unbuildable image as an error on both validators with the reason', async () => {
    const foreign = helloTask({ 'environment/Dockerfile': 'FROM python:3.12-slim\nWORKDIR /app\n' });
    const { byKind } = await validate(foreign);
    expect(byKind.oracle!.verdict).toBe('error');
    expect(byKind.oracle!.error).toMatch(/python:3\.12-slim/);
  });

  it('records a retried job once', async () => {
    const versionId = await storeBundle(testDb.db, helloTask({ 'instruction.md': 'Write hello to /app/out.txt, once.\n' }), {
      source: 'import',
    });
    const first = await validateEnvironment({ db: testDb.db, sandbox, versionId, jobId: 'job-retried' });
    const second = await validateEnvironment({ db: testDb.db, sandbox, versionId, jobId: 'job-retried' });
    expect(second.map((r) => r.id).sort()).toEqual(first.map((r) => r.id).sort());
    expect(await testDb.db.validatorRun.count({ where: { versionId } })).toBe(2);
  });
});
