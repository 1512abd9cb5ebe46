import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import { seedGenerationAwaitingReview, type AwaitingReviewOptions } from '../../test/fixtures/lineage-rows.ts';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { decide } from './decide.ts';
import { DecisionRefusedError } from './errors.ts';
import { nextForReviewer } from './queue.ts';
import { undoableDecision, undoDecision, UNDO_WINDOW_MS } from './undo.ts';

const alice = { id: 'u-alice', email: 'alice@example.test', role: 'reviewer' as const };
const bob = { id: 'u-bob', email: 'bob@example.test', role: 'reviewer' as const };

let testDb: TestDb;
let db: Db;
let seedVersionId: string;

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  seedVersionId = await seedEnvironment(db, { name: 'seed' });
  for (const user of [alice, bob]) await db.user.create({ data: { ...user, name: user.email } });
});
afterAll(() => testDb.cleanup());

const awaiting = (options?: AwaitingReviewOptions) => seedGenerationAwaitingReview(db, seedVersionId, options);

describe('undoDecision', () => {
  it('undoes an approval: awaiting review again at the decided revision, the queued probe withdrawn, audited', async () => {
    const g = await awaiting();
    const outcome = await decide(db, { generationId: g.id, user: alice, decision: 'approve', comment: '', revision: 3 });
    expect(await db.job.count({ where: { dedupeKey: `probe:${g.id}:4` } })).toBe(1);
    const undone = await undoDecision(db, { generationId: g.id, reviewId: outcome.reviewId, user: alice });
    expect(undone).toEqual({ generationId: g.id, state: 'awaiting-review', revision: 3 });
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: 'awaiting-review', revision: 3 });
    expect(await db.job.count({ where: { dedupeKey: `probe:${g.id}:4` } })).toBe(0);
    expect(await db.review.count({ where: { generationId: g.id } })).toBe(0);
    const actions = (await db.auditEvent.findMany({ where: { subjectId: g.id }, orderBy: { createdAt: 'asc' } })).map((e) => e.action);
    expect(actions).toEqual(['generation.approve', 'generation.undo-approve']);
    // Decidable again at the same revision.
    await expect(decide(db, { generationId: g.id, user: alice, decision: 'approve', comment: '', revision: 3 })).resolves.toMatchObject({ state: 'approved' });
  });

  it('undoes one approval of two without touching the generation', async () => {
    const g = await awaiting({ approvalsRequired: 2 });
    const first = await decide(db, { generationId: g.id, user: alice, decision: 'approve', comment: '', revision: 3 });
    await undoDecision(db, { generationId: g.id, reviewId: first.reviewId, user: alice });
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: 'awaiting-review', revision: 3 });
    expect(await db.review.count({ where: { generationId: g.id } })).toBe(0);
  });

  it('withdraws the revision job of a change request', async () => {
    const g = await awaiting();
    const outcome = await decide(db, { generationId: g.id, user: alice, decision: 'request-changes', comment: 'shorter', revision: 3 });
    await undoDecision(db, { generationId: g.id, reviewId: outcome.reviewId, user: alice });
    expect(await db.job.count({ where: { dedupeKey: `revise:${g.id}:4` } })).toBe(0);
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: 'awaiting-review' });
  });

  it('refuses after the window, for another reviewer, once the probe started, and after a later decision', async () => {
    const g = await awaiting();
    const outcome = await decide(db, { generationId: g.id, user: alice, decision: 'approve', comment: '', revision: 3 });
    const later = new Date(Date.now() + UNDO_WINDOW_MS + 1_000);
    await expect(undoDecision(db, { generationId: g.id, reviewId: outcome.reviewId, user: alice, now: later })).rejects.toThrow(/can be undone for 30 seconds/);
    expect(await undoableDecision(db, outcome.reviewId, alice.id, later)).toBeNull();
    await expect(undoDecision(db, { generationId: g.id, reviewId: outcome.reviewId, user: bob })).rejects.toThrow(DecisionRefusedError);
    await db.job.updateMany({ where: { dedupeKey: `probe:${g.id}:4` }, data: { state: 'running' } });
    await expect(undoDecision(db, { generationId: g.id, reviewId: outcome.reviewId, user: alice })).rejects.toThrow(/probe this decision queued has started/);
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: 'approved', revision: 4 });

    const two = await awaiting({ approvalsRequired: 2 });
    const mine = await decide(db, { generationId: two.id, user: alice, decision: 'approve', comment: '', revision: 3 });
    await decide(db, { generationId: two.id, user: bob, decision: 'approve', comment: '', revision: 3 });
    await expect(undoDecision(db, { generationId: two.id, reviewId: mine.reviewId, user: alice })).rejects.toThrow(/Another decision/);
  });
});

describe('nextForReviewer', () => {
  it('is the longest-waiting other generation the reviewer has not approved yet', async () => {
    await db.generation.updateMany({ where: { state: 'awaiting-review' }, data: { state: 'approved' } });
    const oldest = await awaiting({ approvalsRequired: 2, updatedAt: new Date('2020-01-01') });
    const middle = await awaiting({ updatedAt: new Date('2020-01-02') });
    const newest = await awaiting({ updatedAt: new Date('2020-01-03') });
    expect((await nextForReviewer(db, alice.id))?.generationId).toBe(oldest.id);
    expect((await nextForReviewer(db, alice.id, oldest.id))?.generationId).toBe(middle.id);
    await decide(db, { generationId: oldest.id, user: alice, decision: 'approve', comment: '', revision: 3 });
    expect((await nextForReviewer(db, alice.id))?.generationId).toBe(middle.id);
    expect((await nextForReviewer(db, bob.id))?.generationId).toBe(oldest.id);
    await db.generation.updateMany({ where: { id: { in: [oldest.id, middle.id] } }, data: { state: 'approved' } });
    expect(await nextForReviewer(db, alice.id, newest.id)).toBeNull();
  });
});
