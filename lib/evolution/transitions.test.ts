// State changes against a real database (SQLite, and PostgreSQL in scripts/test.sh): a move the
// machine allows bumps the revision, one it does not leaves the row alone, and a rejection
// supersedes exactly the branch evolved from the rejected generation.
import { describe, expect } from 'vitest';
import { seedGenerationInState, type LineageFixture } from '../../test/fixtures/lineage-rows.ts';
import { lineageTest } from '../../test/fixtures/test.ts';
import type { Db } from '../db/client.ts';
import { StaleGenerationError } from './generation-writer.ts';
import { moveGeneration } from './move.ts';
import { GenerationState as S, IllegalTransitionError, type GenerationState } from '../states/states.ts';
import { supersedeIncoherent } from './supersede.ts';

const generation = (
  { db, lineage }: { db: Db; lineage: LineageFixture },
  number: number,
  parentVersionId: string,
  state: GenerationState,
  versionName: string,
) => seedGenerationInState(db, lineage, { number, parentVersionId, state, versionName });

describe('moving a generation', () => {
  lineageTest('bumps the revision on an allowed move', async ({ db, lineage }) => {
    const g = await generation({ db, lineage }, 1, lineage.seedVersionId, S.planning, 'moved');
    const moved = await moveGeneration(db, g, S.modifying);
    expect(moved).toMatchObject({ state: S.modifying, revision: g.revision + 1 });
  });

  lineageTest('refuses a move the machine does not allow and leaves the row as it was', async ({ db, lineage }) => {
    const g = await generation({ db, lineage }, 1, lineage.seedVersionId, S.rejected, 'stays rejected');
    await expect(moveGeneration(db, g, S.released)).rejects.toThrow(IllegalTransitionError);
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: S.rejected, revision: g.revision });
  });

  lineageTest('refuses a mover holding a generation another change moved on, and leaves the row to that change', async ({ db, lineage }) => {
    const g = await generation({ db, lineage }, 1, lineage.seedVersionId, S.planning, 'moved twice');
    const first = await moveGeneration(db, g, S.modifying);
    await expect(moveGeneration(db, g, S.failed)).rejects.toThrow(StaleGenerationError);
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: S.modifying, revision: first.revision });
  });
});

describe('superseding after a rejection', () => {
  lineageTest('supersedes the standing generations of the rejected branch and keeps the rest', async ({ db, lineage }) => {
    const rejected = await generation({ db, lineage }, 2, lineage.seedVersionId, S.rejected, 'rejected parent');
    const child = await generation({ db, lineage }, 3, rejected.versionId!, S.awaitingReview, 'child');
    const grandchild = await generation({ db, lineage }, 4, child.versionId!, S.approved, 'grandchild');
    const failedChild = await generation({ db, lineage }, 3, rejected.versionId!, S.failed, 'failed child');
    const elsewhere = await generation({ db, lineage }, 3, lineage.seedVersionId, S.awaitingReview, 'other branch');

    const superseded = (await db.$transaction((tx) => supersedeIncoherent(tx, lineage.lineageId))).map((s) => s.id);
    expect(superseded.sort()).toEqual([child.id, grandchild.id].sort());
    const states = Object.fromEntries(
      (await db.generation.findMany({ where: { id: { in: [child.id, grandchild.id, failedChild.id, elsewhere.id] } } })).map((g) => [g.id, g.state]),
    );
    expect(states).toEqual({ [child.id]: S.superseded, [grandchild.id]: S.superseded, [failedChild.id]: S.failed, [elsewhere.id]: S.awaitingReview });
  });
});
