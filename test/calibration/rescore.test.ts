// Re-scoring a calibration set in real containers: a lenient verifier passed a wrong artifact;
// the fixed tests (a newer version of the same task) replayed on the same artifacts fail it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalibrationSet, isCalibrationStale, rescoreSet, setMetrics } from '../../lib/calibration/index.ts';
import { seedRollouts } from '../fixtures/calibration-rows.ts';
import { createTestDb, type TestDb } from '../fixtures/db.ts';
import { storeBundle } from '../../lib/env/store.ts';
import { DockerSandbox, ensureBaseImage } from '../../lib/sandbox/index.ts';
import { helloTask } from '../sandbox/fixtures.ts';

let testDb: TestDb;
const sandbox = new DockerSandbox();
const lead = { id: 'u-lead', email: 'lead@example.test' };

beforeAll(async () => {
  await ensureBaseImage({ docker: sandbox.docker, progress: () => {} });
  testDb = await createTestDb();
  await testDb.db.user.create({ data: { ...lead, name: 'Lead', role: 'lead' } });
});
afterAll(() => testDb.cleanup());

describe('rescoreSet', () => {
  it('replays each trajectory’s artifacts under the current tests and stores the new verdicts', async () => {
    const { db } = testDb;
    const lenient = await storeBundle(db, helloTask({ 'tests/test.sh': '#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n' }), { source: 'import' });
    await seedRollouts(db, lenient, [
      { id: 'right', passed: true, files: { '/app/out.txt': 'hello' } },
      { id: 'wrong', passed: true, files: { '/app/out.txt': 'goodbye', '/app/notes/extra.txt': "it's done" } },
      { id: 'empty', passed: false },
    ]);
    const set = await createCalibrationSet(db, lead, {
      scope: { kind: 'versions', versionIds: [lenient] },
      size: 3,
      passShare: 2 / 3,
      seed: 1,
      annotatorEmails: [lead.email],
      overlap: 1,
    });
    await expect(rescoreSet({ db, sandbox, setId: set.id })).rejects.toThrow(/has not changed/);

    await new Promise((resolve) => setTimeout(resolve, 5));
    await storeBundle(db, helloTask(), { source: 'import' }); // the same task with the strict tests
    expect(await isCalibrationStale(db, set.id)).toBe(true);

    const result = await rescoreSet({ db, sandbox, setId: set.id });
    expect(result).toMatchObject({ rescored: 3, errors: 0, skipped: 0 });
    const rescores = await db.calibrationRescore.findMany({ include: { item: { select: { rolloutId: true } } } });
    const byRollout = Object.fromEntries(rescores.map((r) => [r.item.rolloutId, r]));
    expect(byRollout.right).toMatchObject({ reward: 1, passed: true, verifierVersion: result.verifierVersion });
    expect(byRollout.wrong).toMatchObject({ reward: 0, passed: false });
    expect(byRollout.empty).toMatchObject({ reward: 0, passed: false });
    // Idempotent: a second run finds every item done under this verifier.
    expect(await rescoreSet({ db, sandbox, setId: set.id })).toMatchObject({ rescored: 0, skipped: 3 });

    for (const item of await db.calibrationItem.findMany({ where: { setId: set.id } })) {
      await db.calibrationItem.update({ where: { id: item.id }, data: { finalLabel: item.rolloutId === 'right' ? 'pass' : 'fail' } });
    }
    const m = await setMetrics(db, set.id);
    expect(m.recorded.metrics.confusion).toEqual({ tp: 1, fp: 1, fn: 0, tn: 1 });
    expect(m.rescored?.metrics.confusion).toEqual({ tp: 1, fp: 0, fn: 0, tn: 2 });
    expect(m.flipped).toBe(1);
  });
});
