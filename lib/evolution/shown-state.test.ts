// What a page says a lineage and its generations are doing: the pure rules, then the queue's work
// read from a real database (SQLite, and PostgreSQL with ENVOLVE_TEST_DATABASE=postgresql).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import type { Db } from '../db/client.ts';
import { claimJob } from '../queue/claim.ts';
import { GenerationState as S, LineageStatus, LineageWorkStatus } from '../states/states.ts';
import { enqueueEvolution, enqueueRevision } from './jobs.ts';
import { lineageWork, NO_WORK, shownGenerations, shownLineageStatus } from './shown-state.ts';

describe('shownLineageStatus', () => {
  it('says queued while a job waits for a worker, starting once one claimed it, instead of the stored idle', () => {
    expect(shownLineageStatus(LineageStatus.idle, NO_WORK, false)).toBe(LineageStatus.idle);
    expect(shownLineageStatus(LineageStatus.idle, { queued: true, running: false }, false)).toBe(LineageWorkStatus.queued);
    expect(shownLineageStatus(LineageStatus.idle, { queued: true, running: true }, false)).toBe(LineageWorkStatus.starting);
    expect(shownLineageStatus(LineageStatus.stalled, { queued: true, running: false }, false)).toBe(LineageWorkStatus.queued);
    expect(shownLineageStatus(LineageStatus.exhausted, NO_WORK, false)).toBe(LineageStatus.exhausted);
  });

  it('says evolving while a generation is in its loops, and keeps a held lineage waiting on a person', () => {
    expect(shownLineageStatus(LineageStatus.idle, { queued: false, running: true }, true)).toBe(LineageStatus.evolving);
    expect(shownLineageStatus(LineageStatus.evolving, NO_WORK, false)).toBe(LineageStatus.evolving);
    expect(shownLineageStatus(LineageStatus.needsAttention, { queued: true, running: false }, false)).toBe(LineageStatus.needsAttention);
  });
});

describe('shownGenerations', () => {
  const chain = (states: string[]) =>
    states.map((state, i) => ({
      id: `g${i + 1}`,
      number: i + 1,
      state,
      versionId: state === S.modifying || state === S.planning ? null : `v${i + 1}`,
      parentVersionId: i === 0 ? 'seed' : `v${i}`,
      error: null,
    }));

  it('shows a generation still modifying on a superseded parent as superseded, with why', () => {
    // G3 sent back for changes, G4–G6 superseded with it, G7 still in its loops on G6's version.
    const rows = chain([S.approved, S.awaitingReview, S.changesRequested, S.superseded, S.superseded, S.superseded, S.modifying]);
    rows[6]!.parentVersionId = 'v6';
    const shown = shownGenerations('seed', rows);
    expect(shown[6]).toMatchObject({ id: 'g7', state: S.superseded });
    expect(shown[6]!.error).toBe(
      "superseded: built on generation 6's version, which is superseded; its modifying loop still running is set aside when it settles",
    );
    expect(shown.slice(0, 6)).toEqual(rows.slice(0, 6));
  });

  it('leaves work on a current version as it is, a revision of a standing parent included', () => {
    const rows = chain([S.approved, S.awaitingReview, S.planning]);
    expect(shownGenerations('seed', rows)).toEqual(rows);
    // G2 being revised keeps its old version while it runs; it rests on G1, which stands.
    const revising = chain([S.approved, S.awaitingReview]);
    revising[1]!.state = S.modifying;
    expect(shownGenerations('seed', revising)).toEqual(revising);
  });
});

describe('lineageWork', () => {
  let testDb: TestDb;
  let db: Db;
  let seed: string;
  let count = 0;

  beforeAll(async () => {
    testDb = await createTestDb();
    db = testDb.db;
    seed = await seedEnvironment(db, { name: 'shown-state seed' });
  });
  afterAll(() => testDb.cleanup());

  const lineage = () =>
    db.lineage.create({
      data: { name: `shown ${++count}`, seedVersionId: seed, axisPolicy: '{"kind":"round-robin"}', effort: 'low', synthesiser: 'procedural', seed: 1 },
    });

  it('finds a queued evolve job, then the same job claimed by a worker, and a revision by its generation', async () => {
    const waiting = await lineage();
    const revised = await lineage();
    const quiet = await lineage();
    const generation = await db.generation.create({
      data: { lineageId: revised.id, number: 1, parentVersionId: seed, axis: 'length', effort: 'low', state: S.changesRequested, revision: 1 },
    });
    await enqueueEvolution(db, { lineageId: waiting.id, generations: 2 });
    await enqueueRevision(db, { generationId: generation.id, comment: 'shorter' });
    const ids = [waiting.id, revised.id, quiet.id];

    const before = await lineageWork(db, ids);
    expect(before.get(waiting.id)).toEqual({ queued: true, running: false });
    expect(before.get(revised.id)).toEqual({ queued: true, running: false });
    expect(before.has(quiet.id)).toBe(false);

    // The revision is ahead in the queue (priority); both get claimed.
    expect(await claimJob(db, { workerId: 'worker-a', leaseMs: 60_000 })).not.toBeNull();
    expect(await claimJob(db, { workerId: 'worker-b', leaseMs: 60_000 })).not.toBeNull();
    const after = await lineageWork(db, ids);
    expect(after.get(waiting.id)).toEqual({ queued: false, running: true });
    expect(after.get(revised.id)).toEqual({ queued: false, running: true });
  });
});
