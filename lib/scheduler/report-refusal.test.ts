import { describe, expect } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import { fileDbTest } from '../../test/fixtures/test.ts';
import { declaredRewardRange, trainerReportRefusal } from './report-refusal.ts';

describe('trainer reports that may not be counted', () => {
  fileDbTest('accepts a servable version with rewards in range', async ({ db }) => {
    const id = await seedEnvironment(db, { name: 'servable' });
    expect(await trainerReportRefusal(db, { versionId: id, rewards: [0, 1, 0.5, null] })).toBeNull();
  });

  fileDbTest('refuses a version flagged as a reward hack, rejected in review, or held out', async ({ db }) => {
    const flagged = await seedEnvironment(db, { name: 'flagged' });
    await db.environmentVersion.update({ where: { id: flagged }, data: { compromisedAt: new Date(), compromisedReason: 'reward hack' } });
    expect(await trainerReportRefusal(db, { versionId: flagged, rewards: [1] })).toMatchObject({ kind: 'flagged' });

    const seed = await seedEnvironment(db, { name: 'seed of a rejected one' });
    const rejected = await seedEnvironment(db, { name: 'rejected' });
    const lineage = await db.lineage.create({
      data: { name: 'l', seedVersionId: seed, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1 },
    });
    await db.generation.create({
      data: { lineageId: lineage.id, number: 1, parentVersionId: seed, versionId: rejected, axis: 'length', effort: 'low', state: 'rejected' },
    });
    expect(await trainerReportRefusal(db, { versionId: rejected, rewards: [1] })).toMatchObject({ kind: 'rejected' });

    const heldOut = await seedEnvironment(db, { name: 'held out' });
    await db.environmentVersion.update({ where: { id: heldOut }, data: { heldOutSet: 'eval-a' } });
    expect(await trainerReportRefusal(db, { versionId: heldOut, rewards: [1] })).toMatchObject({ kind: 'held_out' });

    expect(await trainerReportRefusal(db, { versionId: 'f'.repeat(64), rewards: [1] })).toMatchObject({ kind: 'unknown_version' });
  });

  fileDbTest('refuses rewards outside the declared range, 0–1 unless the task says otherwise', async ({ db }) => {
    const id = await seedEnvironment(db, { name: 'ranged' });
    expect(await trainerReportRefusal(db, { versionId: id, rewards: [1.5] })).toMatchObject({
      kind: 'reward_out_of_range',
      message: expect.stringContaining('[0, 1]'),
    });
    expect(await trainerReportRefusal(db, { versionId: id, rewards: [-0.1] })).toMatchObject({ kind: 'reward_out_of_range' });
    expect(await trainerReportRefusal(db, { versionId: id, rewards: [1], timeoutReward: -1 })).toMatchObject({ kind: 'reward_out_of_range' });
    expect(declaredRewardRange('[verifier]\ntimeout_sec = 1\nreward_range = [-1, 10]\n')).toEqual([-1, 10]);
    expect(declaredRewardRange('[verifier]\nreward_range = [5, 1]\n')).toEqual([0, 1]);
    expect(declaredRewardRange('not toml [')).toEqual([0, 1]);
  });
});
