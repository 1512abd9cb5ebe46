import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import { seedGenerationAwaitingReview, seedLineage, type AwaitingReviewOptions } from '../../test/fixtures/lineage-rows.ts';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { decide } from './decide.ts';
import { DecisionRefusedError } from './errors.ts';
import { nextForReviewer } from './queue.ts';
import { undoableDecision, undoDecision, undoneDecision, UNDO_WINDOW_MS } from './undo.ts';

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
    expect(undone).toEqual({ generationId: g.id, state: 'awaiting-review', revision: 3, restored: [] });
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
    expect((await undoableDecision(db, outcome.reviewId, alice.id, later))?.undo).toEqual({
      refusal: 'decisions can be undone for 30 seconds; this one is older',
    });
    expect(await undoableDecision(db, outcome.reviewId, bob.id)).toBeNull();
    await expect(undoDecision(db, { generationId: g.id, reviewId: outcome.reviewId, user: bob })).rejects.toThrow(DecisionRefusedError);
    await db.job.updateMany({ where: { dedupeKey: `probe:${g.id}:4` }, data: { state: 'running' } });
    await expect(undoDecision(db, { generationId: g.id, reviewId: outcome.reviewId, user: alice })).rejects.toThrow(/the probe it queued has started/);
    expect((await undoableDecision(db, outcome.reviewId, alice.id))?.undo).toEqual({ refusal: 'the probe it queued has started' });
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: 'approved', revision: 4 });

    const two = await awaiting({ approvalsRequired: 2 });
    const mine = await decide(db, { generationId: two.id, user: alice, decision: 'approve', comment: '', revision: 3 });
    await decide(db, { generationId: two.id, user: bob, decision: 'approve', comment: '', revision: 3 });
    await expect(undoDecision(db, { generationId: two.id, reviewId: mine.reviewId, user: alice })).rejects.toThrow(/another decision was made/);
  });
});

describe('undoing a decision that set generations aside', () => {
  // G1 awaiting review, G2–G4 evolved from it one on the other, G3 already approved.
  async function lineageOfFour() {
    const { generationIds } = await seedLineage(db, {
      name: `chain ${Math.random()}`,
      generations: 4,
      attempts: 1,
      seedVersionId,
      stateOf: (n) => (n === 3 ? 'approved' : 'awaiting-review'),
    });
    return generationIds;
  }
  const states = async (ids: string[]) =>
    (await db.generation.findMany({ where: { id: { in: ids } }, orderBy: { number: 'asc' }, select: { state: true, revision: true } })).map(
      (g) => `${g.state}@${g.revision}`,
    );

  it('reports what a change request set aside and what is rebuilt, and offers the undo while it can work', async () => {
    const [g1, ...later] = await lineageOfFour();
    const outcome = await decide(db, { generationId: g1!, user: alice, decision: 'request-changes', comment: 'name the file', revision: 0 });
    expect(await states(later)).toEqual(['superseded@1', 'superseded@1', 'superseded@1']);
    const report = await undoableDecision(db, outcome.reviewId, alice.id);
    expect(report).toMatchObject({ decision: 'request-changes', state: 'changes-requested', number: 1, rebuild: 3 });
    expect(report?.setAside.map((g) => g.number)).toEqual([2, 3, 4]);
    expect(report?.undo).toHaveProperty('until');
  });

  it('restores the set-aside generations to where they stood, withdraws the revision, and audits each restore', async () => {
    const [g1, ...later] = await lineageOfFour();
    const outcome = await decide(db, { generationId: g1!, user: alice, decision: 'request-changes', comment: 'name the file', revision: 0 });
    const undone = await undoDecision(db, { generationId: g1!, reviewId: outcome.reviewId, user: alice });
    expect(undone.restored.map((g) => g.number)).toEqual([2, 3, 4]);
    expect(await states([g1!])).toEqual(['awaiting-review@0']);
    expect(await states(later)).toEqual(['awaiting-review@0', 'approved@0', 'awaiting-review@0']);
    expect((await db.generation.findMany({ where: { id: { in: later } } })).map((g) => g.error)).toEqual([null, null, null]);
    expect(await db.job.count({ where: { dedupeKey: `revise:${g1}:1` } })).toBe(0);
    for (const id of later) {
      const actions = (await db.auditEvent.findMany({ where: { subjectId: id }, orderBy: { createdAt: 'asc' } })).map((e) => [e.action, e.actorId]);
      expect(actions).toEqual([
        ['generation.supersede', alice.id],
        ['generation.restore', alice.id],
      ]);
    }
    const undoEvent = await db.auditEvent.findFirstOrThrow({ where: { subjectId: g1!, action: 'generation.undo-request-changes' } });
    expect(JSON.parse(undoEvent.after!)).toMatchObject({ restored: later });
    expect(await undoneDecision(db, g1!, alice.id)).toEqual({ decision: 'request-changes', restored: undone.restored });
    expect(await undoneDecision(db, g1!, bob.id)).toBeNull();
    // The lineage stands as before: G2 can be decided at the revision it had.
    await expect(decide(db, { generationId: later[0]!, user: bob, decision: 'approve', comment: '', revision: 0 })).resolves.toMatchObject({
      state: 'approved',
    });
    expect(await undoneDecision(db, later[0]!, alice.id)).toBeNull();
  });

  it('restores what a rejection set aside too', async () => {
    const [g1, ...later] = await lineageOfFour();
    const outcome = await decide(db, { generationId: g1!, user: alice, decision: 'reject', comment: 'wrong skill', revision: 0 });
    expect((await undoableDecision(db, outcome.reviewId, alice.id))?.rebuild).toBe(0);
    await undoDecision(db, { generationId: g1!, reviewId: outcome.reviewId, user: alice });
    expect(await states([g1!, ...later])).toEqual(['awaiting-review@0', 'awaiting-review@0', 'approved@0', 'awaiting-review@0']);
  });

  it('is not offered, and refused, once the revision started, a set-aside generation moved, or the lineage evolved again', async () => {
    const refusalOf = async (reviewId: string) => (await undoableDecision(db, reviewId, alice.id))?.undo;
    const refuse = (g: string, reviewId: string, why: RegExp) => expect(undoDecision(db, { generationId: g, reviewId, user: alice })).rejects.toThrow(why);

    const [a] = await lineageOfFour();
    const started = await decide(db, { generationId: a!, user: alice, decision: 'request-changes', comment: 'x', revision: 0 });
    await db.job.updateMany({ where: { dedupeKey: `revise:${a}:1` }, data: { state: 'running' } });
    expect(await refusalOf(started.reviewId)).toEqual({ refusal: 'the revision it queued has started' });
    await refuse(a!, started.reviewId, /the revision it queued has started/);

    const [b, b2] = await lineageOfFour();
    const moved = await decide(db, { generationId: b!, user: alice, decision: 'request-changes', comment: 'x', revision: 0 });
    await db.$executeRaw`UPDATE "Generation" SET "revision" = 7 WHERE "id" = ${b2}`;
    expect(await refusalOf(moved.reviewId)).toEqual({ refusal: 'generation 2, which it set aside, has changed since (it is superseded)' });
    await refuse(b!, moved.reviewId, /generation 2, which it set aside, has changed/);

    const [c] = await lineageOfFour();
    const rebuilt = await decide(db, { generationId: c!, user: alice, decision: 'request-changes', comment: 'x', revision: 0 });
    const lineageId = (await db.generation.findUniqueOrThrow({ where: { id: c! } })).lineageId;
    await db.generation.create({ data: { lineageId, number: 2, parentVersionId: seedVersionId, axis: 'length', effort: 'low', state: 'planning' } });
    expect(await refusalOf(rebuilt.reviewId)).toEqual({ refusal: 'generation 2 was evolved in the lineage since' });
    await refuse(c!, rebuilt.reviewId, /generation 2 was evolved in the lineage since/);
    // Nothing moved: the refusals left every generation where the decision put it.
    expect(await states([c!])).toEqual(['changes-requested@1']);
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
