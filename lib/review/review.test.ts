import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import { seedGenerationAwaitingReview, type AwaitingReviewOptions } from '../../test/fixtures/lineage-rows.ts';
import { getGenerationReview } from '../dashboard/generation.ts';
import type { Db } from '../db/client.ts';
import { RefusedError } from '../errors/index.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { REVISE_JOB } from '../evolution/jobs.ts';
import { GenerationNotFoundError } from '../evolution/index.ts';
import { shownApprovers } from './approvals.ts';
import { addComment, listComments } from './comments.ts';
import { decide } from './decide.ts';
import { DecisionRefusedError, RevisionConflictError } from './errors.ts';
import { reviewQueue } from './queue.ts';
import { setFileViewed, viewedFiles } from './viewed.ts';

const alice = { id: 'u-alice', email: 'alice@example.test', role: 'reviewer' };
const bob = { id: 'u-bob', email: 'bob@example.test', role: 'reviewer' };

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

/** A stand-in content hash per path for marks whose file content the test does not care about. */
function hashOf(path: string): string {
  return createHash('sha256').update(path).digest('hex');
}

const awaitingGeneration = (options?: AwaitingReviewOptions) => seedGenerationAwaitingReview(db, seedVersionId, options);

const audits = (generationId: string) => db.auditEvent.findMany({ where: { subjectId: generationId }, orderBy: { createdAt: 'asc' } });

describe('decide', () => {
  it('approves with one required approval, bumping the revision, and audits it', async () => {
    const g = await awaitingGeneration();
    const outcome = await decide(db, { generationId: g.id, user: alice, decision: 'approve', comment: '', revision: 3 });
    expect(outcome).toMatchObject({ state: 'approved', revision: 4, approvals: 1, approvalsRequired: 1 });
    expect(await db.generation.findUniqueOrThrow({ where: { id: g.id } })).toMatchObject({ state: 'approved', revision: 4 });
    const [event] = await audits(g.id);
    expect(event).toMatchObject({ action: 'generation.approve', actorId: alice.id, actorEmail: alice.email });
    expect(JSON.parse(event?.before ?? '')).toMatchObject({ state: 'awaiting-review', revision: 3 });
    expect(JSON.parse(event?.after ?? '')).toMatchObject({ state: 'approved', revision: 4 });
  });

  it('needs two distinct reviewers when the lineage requires two approvals', async () => {
    const g = await awaitingGeneration({ approvalsRequired: 2 });
    const first = await decide(db, { generationId: g.id, user: alice, decision: 'approve', comment: 'looks right', revision: 3 });
    expect(first).toMatchObject({ state: 'awaiting-review', revision: 3, approvals: 1, approvalsRequired: 2 });
    await expect(decide(db, { generationId: g.id, user: alice, decision: 'approve', comment: '', revision: 3 })).rejects.toThrow(DecisionRefusedError);
    const second = await decide(db, { generationId: g.id, user: bob, decision: 'approve', comment: '', revision: 3 });
    expect(second).toMatchObject({ state: 'approved', revision: 4, approvals: 2 });
    expect((await audits(g.id)).map((e) => e.action)).toEqual(['generation.approve', 'generation.approve']);
  });

  it('shows the approvals that approved a generation once it is approved and released, not those of its newer revision', async () => {
    const g = await awaitingGeneration({ approvalsRequired: 2 });
    await decide(db, { generationId: g.id, user: alice, decision: 'approve', comment: '', revision: 3 });
    expect(await shownApprovers(db, { id: g.id, state: 'awaiting-review', revision: 3 })).toEqual([alice.id]);
    await decide(db, { generationId: g.id, user: bob, decision: 'approve', comment: '', revision: 3 });
    const approved = await db.generation.findUniqueOrThrow({ where: { id: g.id } });
    expect(approved).toMatchObject({ state: 'approved', revision: 4 });
    expect((await shownApprovers(db, approved)).sort()).toEqual([alice.id, bob.id].sort());
    const released = await db.generation.update({ where: { id: g.id }, data: { state: 'released', revision: { increment: 1 } } });
    expect((await shownApprovers(db, released)).sort()).toEqual([alice.id, bob.id].sort());
    // Sent back to review: the new revision starts from zero.
    const reopened = await db.generation.update({ where: { id: g.id }, data: { state: 'awaiting-review', revision: { increment: 1 } } });
    expect(await shownApprovers(db, reopened)).toEqual([]);
  });

  it('lets exactly one of two concurrent decisions through; the other gets a RevisionConflictError naming the first', async () => {
    const g = await awaitingGeneration();
    const results = await Promise.allSettled([
      decide(db, { generationId: g.id, user: alice, decision: 'approve', comment: '', revision: 3 }),
      decide(db, { generationId: g.id, user: bob, decision: 'reject', comment: 'the tests are trivially satisfiable', revision: 3 }),
    ]);
    const fulfilled = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    const conflict = rejected[0]?.reason as RevisionConflictError;
    expect(conflict).toBeInstanceOf(RevisionConflictError);
    expect(conflict.current.revision).toBe(4);
    expect(conflict.lastChange?.actorEmail).toMatch(/alice|bob/);
    expect(conflict.message).toContain('changed while you were reviewing');
    // The loser left nothing behind: one review, one audit event.
    expect(await db.review.count({ where: { generationId: g.id } })).toBe(1);
    expect(await audits(g.id)).toHaveLength(1);
  });

  it('refuses a decision on a revision the reviewer did not see', async () => {
    const g = await awaitingGeneration();
    await expect(decide(db, { generationId: g.id, user: alice, decision: 'approve', comment: '', revision: 2 })).rejects.toThrow(RevisionConflictError);
    expect((await db.generation.findUniqueOrThrow({ where: { id: g.id } })).state).toBe('awaiting-review');
  });

  it('needs a comment to reject or request changes', async () => {
    const g = await awaitingGeneration();
    await expect(decide(db, { generationId: g.id, user: alice, decision: 'reject', comment: '  ', revision: 3 })).rejects.toThrow(DecisionRefusedError);
    await expect(decide(db, { generationId: g.id, user: alice, decision: 'request-changes', comment: '', revision: 3 })).rejects.toThrow(/needs a comment/);
    const outcome = await decide(db, { generationId: g.id, user: alice, decision: 'reject', comment: 'solution hard-codes the answer', revision: 3 });
    expect(outcome.state).toBe('rejected');
    const review = await db.review.findFirstOrThrow({ where: { generationId: g.id } });
    expect(review).toMatchObject({ decision: 'reject', comment: 'solution hard-codes the answer', revision: 3, reviewerId: alice.id });
  });

  it('request-changes moves to changes-requested and queues a revise job carrying the comment', async () => {
    const g = await awaitingGeneration();
    const outcome = await decide(db, { generationId: g.id, user: bob, decision: 'request-changes', comment: 'make the log bigger', revision: 3 });
    expect(outcome).toMatchObject({ state: 'changes-requested', revision: 4 });
    const jobs = await db.job.findMany({ where: { kind: REVISE_JOB } });
    expect(jobs.map((j) => JSON.parse(j.payload))).toContainEqual({ generationId: g.id, comment: 'make the log bigger', rebuild: 0 });
    expect((await audits(g.id)).map((e) => e.action)).toEqual(['generation.request-changes']);
  });

  it('only decides generations awaiting review', async () => {
    for (const state of ['validating', 'approved', 'rejected', 'failed']) {
      const g = await awaitingGeneration({ state });
      await expect(decide(db, { generationId: g.id, user: alice, decision: 'approve', comment: '', revision: 3 })).rejects.toThrow(/awaiting review/);
    }
  });
});

describe('comments and viewed marks', () => {
  it('pins a comment to a file line, lists it with its author, and audits it', async () => {
    const g = await awaitingGeneration();
    await addComment(db, { generationId: g.id, user: alice, body: 'off by one here', path: 'tests/test.sh', line: 12 });
    await addComment(db, { generationId: g.id, user: bob, body: 'overall fine' });
    expect(await listComments(db, g.id)).toMatchObject([
      { authorEmail: alice.email, path: 'tests/test.sh', line: 12, body: 'off by one here' },
      { authorEmail: bob.email, path: null, line: null, body: 'overall fine' },
    ]);
    expect((await audits(g.id)).map((e) => e.action)).toEqual(['generation.comment', 'generation.comment']);
    await expect(addComment(db, { generationId: g.id, user: alice, body: ' ' })).rejects.toThrow(RefusedError);
  });

  it('toggles a viewed mark per user and file', async () => {
    const g = await awaitingGeneration();
    await setFileViewed(db, { user: alice, generationId: g.id, path: 'a.txt', contentSha256: hashOf('a.txt'), viewed: true });
    await setFileViewed(db, { user: alice, generationId: g.id, path: 'a.txt', contentSha256: hashOf('a.txt'), viewed: true });
    await setFileViewed(db, { user: alice, generationId: g.id, path: 'b.txt', contentSha256: hashOf('b.txt'), viewed: true });
    await setFileViewed(db, { user: alice, generationId: g.id, path: 'b.txt', contentSha256: hashOf('b.txt'), viewed: false });
    const current = new Map(['a.txt', 'b.txt'].map((path) => [path, hashOf(path)]));
    expect(await viewedFiles(db, alice.id, g.id, current)).toEqual(['a.txt']);
    expect(await viewedFiles(db, bob.id, g.id, current)).toEqual([]);
  });

  it('keeps a mark on an unchanged file across a revision and shows a changed file unviewed', async () => {
    const g = await awaitingGeneration();
    const residual = (files: Record<string, string>) =>
      JSON.stringify(Object.entries(files).map(([path, content]) => ({ op: 'add', path, encoding: 'utf8', content })));
    await db.attempt.create({
      data: { generationId: g.id, number: 1, state: 'superseded', residual: residual({ 'tests/test.sh': 'echo 1', 'data/a.csv': 'x,1' }) },
    });
    const first = await getGenerationReview(db, g.id, { viewerId: alice.id });
    for (const file of first?.residual ?? [])
      await setFileViewed(db, { user: alice, generationId: g.id, path: file.path, contentSha256: file.contentSha256, viewed: true });
    expect((await getGenerationReview(db, g.id, { viewerId: alice.id }))?.viewedPaths).toEqual(['data/a.csv', 'tests/test.sh']);

    // The revision changes the test and leaves the data file as it was.
    await db.attempt.create({
      data: { generationId: g.id, number: 2, state: 'passed', residual: residual({ 'tests/test.sh': 'echo 2', 'data/a.csv': 'x,1' }) },
    });
    const revised = await getGenerationReview(db, g.id, { viewerId: alice.id });
    expect(revised?.focusedAttempt).toBe(2);
    expect(revised?.viewedPaths).toEqual(['data/a.csv']);
    // Attempt 1, looked at again, still shows both files as viewed: the marks are on its content.
    expect((await getGenerationReview(db, g.id, { viewerId: alice.id, attempt: 1 }))?.viewedPaths).toEqual(['data/a.csv', 'tests/test.sh']);
    // Marking the changed file again keeps it on the new content.
    const changed = revised?.residual.find((f) => f.path === 'tests/test.sh');
    await setFileViewed(db, { user: alice, generationId: g.id, path: 'tests/test.sh', contentSha256: changed?.contentSha256 ?? '', viewed: true });
    expect((await getGenerationReview(db, g.id, { viewerId: alice.id }))?.viewedPaths).toEqual(['data/a.csv', 'tests/test.sh']);
  });

  it('does not count a mark from before content hashes were kept', async () => {
    const g = await awaitingGeneration();
    await db.fileViewMark.create({ data: { userId: alice.id, generationId: g.id, path: 'a.txt' } });
    expect(await viewedFiles(db, alice.id, g.id, new Map([['a.txt', hashOf('a.txt')]]))).toEqual([]);
  });

  it('audits one entry per review session, updated with each file, not one per checkbox', async () => {
    const g = await awaitingGeneration();
    const start = new Date('2031-03-01T10:00:00Z');
    const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
    await setFileViewed(db, { user: alice, generationId: g.id, path: 'a.txt', contentSha256: hashOf('a.txt'), viewed: true, now: at(0) });
    await setFileViewed(db, { user: alice, generationId: g.id, path: 'b.txt', contentSha256: hashOf('b.txt'), viewed: true, now: at(10) });
    await setFileViewed(db, { user: alice, generationId: g.id, path: 'a.txt', contentSha256: hashOf('a.txt'), viewed: false, now: at(25) });
    await setFileViewed(db, { user: bob, generationId: g.id, path: 'a.txt', contentSha256: hashOf('a.txt'), viewed: true, now: at(26) });
    // 29 minutes after alice's last tick: the same session, though 54 minutes after its first.
    await setFileViewed(db, { user: alice, generationId: g.id, path: 'c.txt', contentSha256: hashOf('c.txt'), viewed: true, now: at(54) });
    const sessions = async (user: { id: string }) =>
      (await audits(g.id)).filter((e) => e.actorId === user.id).map((e) => ({ action: e.action, createdAt: e.createdAt, after: JSON.parse(e.after ?? '') }));
    expect(await sessions(alice)).toEqual([
      {
        action: 'generation.files-viewed',
        createdAt: at(0),
        after: {
          files: [
            { path: 'a.txt', viewed: false },
            { path: 'b.txt', viewed: true },
            { path: 'c.txt', viewed: true },
          ],
          lastAt: at(54).toISOString(),
        },
      },
    ]);
    expect(await sessions(bob)).toHaveLength(1);
    // Thirty idle minutes end the session: the next tick starts another entry.
    await setFileViewed(db, { user: alice, generationId: g.id, path: 'd.txt', contentSha256: hashOf('d.txt'), viewed: true, now: at(84) });
    const [, next] = await sessions(alice);
    expect(next).toEqual({
      action: 'generation.files-viewed',
      createdAt: at(84),
      after: { files: [{ path: 'd.txt', viewed: true }], lastAt: at(84).toISOString() },
    });
  });

  it('refuses a viewed mark for a generation that does not exist, and audits nothing', async () => {
    await expect(
      setFileViewed(db, { user: alice, generationId: 'nosuchgeneration', path: 'a.txt', contentSha256: hashOf('a.txt'), viewed: true }),
    ).rejects.toThrow(GenerationNotFoundError);
    expect(await db.auditEvent.count({ where: { subjectId: 'nosuchgeneration' } })).toBe(0);
    expect(await db.fileViewMark.count({ where: { generationId: 'nosuchgeneration' } })).toBe(0);
  });
});

describe('reviewQueue', () => {
  it('lists generations awaiting review, oldest first, paginated', async () => {
    await db.generation.updateMany({ where: { state: 'awaiting-review' }, data: { state: 'approved' } });
    const newer = await awaitingGeneration({ updatedAt: new Date('2030-01-02') });
    const older = await awaitingGeneration({ updatedAt: new Date('2030-01-01') });
    await awaitingGeneration({ state: 'validating' });
    const first = await reviewQueue(db, { pageSize: 1 });
    expect(first.total).toBe(2);
    expect(first.items.map((i) => i.generationId)).toEqual([older.id]);
    const second = await reviewQueue(db, { page: 2, pageSize: 1 });
    expect(second.items[0]).toMatchObject({ generationId: newer.id, number: 1, approvals: 0, approvalsRequired: 1 });
    const newestFirst = await reviewQueue(db, { pageSize: 1, sort: { key: 'waiting', dir: 'desc' } });
    expect(newestFirst.items.map((i) => i.generationId)).toEqual([newer.id]);
    const byLineage = await reviewQueue(db, { sort: { key: 'lineage', dir: 'desc' } });
    expect(byLineage.items.map((i) => i.generationId).sort()).toEqual([newer.id, older.id].sort());
    const byNumber = await reviewQueue(db, { sort: { key: 'generation', dir: 'asc' } });
    expect(byNumber.items.map((i) => i.generationId)).toEqual([older.id, newer.id]); // equal numbers: the longest-waiting first
  });
});
