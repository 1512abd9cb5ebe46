import { describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from '../db/client.ts';
import { fileDbTest } from '../../test/fixtures/test.ts';
import { GenerationState } from '../states/states.ts';
import { trainableEnvironments } from './batch.ts';
import { trainerReportRefusal } from './report-refusal.ts';
import { refusalOf, unservableReason } from './servable.ts';

async function lineageOf(db: Db, seed: string, name: string, heldOutSet: string | null = null) {
  return db.lineage.create({
    data: { name, seedVersionId: seed, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1, heldOutSet },
  });
}

async function generationOn(db: Db, lineageId: string, parent: string, number: number, state: GenerationState, name: string): Promise<string> {
  const versionId = await seedEnvironment(db, { name });
  await db.generation.create({ data: { lineageId, number, parentVersionId: parent, versionId, axis: 'length', effort: 'low', state } });
  return versionId;
}

describe('one servability rule', () => {
  fileDbTest('serves a version outside every lineage and a released generation', async ({ db }) => {
    const alone = await seedEnvironment(db, { name: 'alone' });
    expect(await unservableReason(db, alone)).toBeNull();
    const seed = await seedEnvironment(db, { name: 'served seed' });
    const lineage = await lineageOf(db, seed, 'served');
    const released = await generationOn(db, lineage.id, seed, 1, GenerationState.released, 'released');
    expect(await unservableReason(db, released)).toBeNull();
  });

  fileDbTest('refuses unknown, flagged, held-out, rejected and superseded versions, each with its reason', async ({ db }) => {
    expect(await unservableReason(db, 'f'.repeat(64))).toMatchObject({ kind: 'unknown_version' });

    const flagged = await seedEnvironment(db, { name: 'flagged one' });
    await db.environmentVersion.update({ where: { id: flagged }, data: { compromisedAt: new Date() } });
    expect(await unservableReason(db, flagged)).toMatchObject({ kind: 'flagged' });

    const seed = await seedEnvironment(db, { name: 'branch seed' });
    const lineage = await lineageOf(db, seed, 'branch');
    const rejected = await generationOn(db, lineage.id, seed, 1, GenerationState.rejected, 'rejected one');
    const superseded = await generationOn(db, lineage.id, rejected, 2, GenerationState.superseded, 'superseded one');
    expect(await unservableReason(db, rejected)).toMatchObject({ kind: 'rejected', message: expect.stringContaining('rejected in review') });
    expect(await unservableReason(db, superseded)).toMatchObject({ kind: 'superseded' });
  });

  fileDbTest('refuses every version of a held-out lineage, not only versions marked themselves', async ({ db }) => {
    const seed = await seedEnvironment(db, { name: 'held seed' });
    const lineage = await lineageOf(db, seed, 'held', 'eval-b');
    const released = await generationOn(db, lineage.id, seed, 1, GenerationState.released, 'held release');
    expect(await unservableReason(db, seed)).toMatchObject({ kind: 'held_out', message: expect.stringContaining('eval-b') });
    expect(await unservableReason(db, released)).toMatchObject({ kind: 'held_out' });
    // The group report and the batch ask the same rule.
    expect(await trainerReportRefusal(db, { versionId: released, rewards: [1] })).toMatchObject({ kind: 'held_out' });
    expect((await trainableEnvironments(db, 'trainer')).environments.map((e) => e.lineageId)).not.toContain(lineage.id);
  });

  fileDbTest('leaves out of a batch a released generation that was later superseded, serving the seed instead', async ({ db }) => {
    const seed = await seedEnvironment(db, { name: 'fallback seed' });
    const lineage = await lineageOf(db, seed, 'fallback');
    const withdrawn = await generationOn(db, lineage.id, seed, 1, GenerationState.released, 'withdrawn');
    await db.generation.create({
      data: { lineageId: lineage.id, number: 1, parentVersionId: seed, versionId: withdrawn, axis: 'length', effort: 'low', state: GenerationState.superseded },
    });
    const pool = await trainableEnvironments(db, 'trainer');
    expect(pool.environments.find((e) => e.lineageId === lineage.id)).toMatchObject({ versionId: seed, generation: 0 });
    expect(pool.left_out.find((e) => e.lineageId === lineage.id)).toMatchObject({ versionId: withdrawn, generation: 1, reason: 'superseded' });
  });

  it('names the flag before the hold when both apply', () => {
    const facts = { id: 'v', compromisedAt: new Date(), heldOutSet: 'eval', refusedState: null };
    expect(refusalOf(facts)?.kind).toBe('flagged');
    expect(refusalOf({ ...facts, compromisedAt: null })?.kind).toBe('held_out');
    expect(refusalOf({ ...facts, compromisedAt: null, heldOutSet: null })).toBeNull();
  });
});
