// State changes against a real database (SQLite, and PostgreSQL in scripts/test.sh): a move the
// machine allows bumps the revision, one it does not leaves the row alone, and a rejection
// supersedes exactly the branch evolved from the rejected generation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../db/test-db.ts';
import { StaleGenerationError } from './generation-writer.ts';
import { moveGeneration } from './move.ts';
import { GenerationState as S, IllegalTransitionError, type GenerationState } from '../states/states.ts';
import { supersedeIncoherent } from './supersede.ts';

let testDb: TestDb;
let db: Db;
let seed: string;
let lineageId: string;
beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  seed = await seedEnvironment(db, { name: 'transitions seed' });
  lineageId = (
    await db.lineage.create({
      data: { name: 't', seedVersionId: seed, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1 },
    })
  ).id;
});
afterAll(() => testDb.cleanup());

async function generation(number: number, parentVersionId: string, state: GenerationState, name: string) {
  const versionId = await seedEnvironment(db, { name });
  return db.generation.create({ data: { lineageId, number, parentVersionId, versionId, axis: 'length', effort: 'low', state } });
}

describe('moving a generation', () => {
  it('bumps the revision on an allowed move', async () => {
    const g = await generation(1, seed, S.planning, 'moved');
    const moved = await moveGeneration(db, g, S.modifying);
    expect(moved).toMatchObject({ state: S.modifying, revision: g.revision + 1 });
  });

  it('refuses a move the machine does not allow and leaves the row as it was', async () => {
    const g = await generation(1, seed, S.rejected, 'stays rejected');
    await expect(moveGeneration(db, g, S.released)).rejects.toThrow(IllegalTransitionError);
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: S.rejected, revision: g.revision });
  });

  it('refuses a mover holding a generation another change moved on, and leaves the row to that change', async () => {
    const g = await generation(1, seed, S.planning, 'moved twice');
    const first = await moveGeneration(db, g, S.modifying);
    await expect(moveGeneration(db, g, S.failed)).rejects.toThrow(StaleGenerationError);
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: S.modifying, revision: first.revision });
  });
});

describe('superseding after a rejection', () => {
  it('supersedes the standing generations of the rejected branch and keeps the rest', async () => {
    const rejected = await generation(2, seed, S.rejected, 'rejected parent');
    const child = await generation(3, rejected.versionId!, S.awaitingReview, 'child');
    const grandchild = await generation(4, child.versionId!, S.approved, 'grandchild');
    const failedChild = await generation(3, rejected.versionId!, S.failed, 'failed child');
    const elsewhere = await generation(3, seed, S.awaitingReview, 'other branch');

    const superseded = (await db.$transaction((tx) => supersedeIncoherent(tx, lineageId))).map((s) => s.id);
    expect(superseded.sort()).toEqual([child.id, grandchild.id].sort());
    const states = Object.fromEntries(
      (await db.generation.findMany({ where: { id: { in: [child.id, grandchild.id, failedChild.id, elsewhere.id] } } })).map((g) => [g.id, g.state]),
    );
    expect(states).toEqual({ [child.id]: S.superseded, [grandchild.id]: S.superseded, [failedChild.id]: S.failed, [elsewhere.id]: S.awaitingReview });
  });
});
