// The exits of a needs-attention generation against a real database (SQLite, and PostgreSQL with
// ENVOLVE_TEST_DATABASE=postgresql): each moves the generation once, bumps its revision, audits
// who and why in the same transaction, and the lineage stops (and says so) until one is taken.
// The retry's re-validation itself runs in test/evolution/attention-retry.test.ts (real sandbox).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEnvironment } from '../../test/fixtures/dashboard-rows.ts';
import type { Db } from '../db/client.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { ConflictError, ForbiddenError } from '../errors/index.ts';
import { takeAttentionExit } from './attention.ts';
import { REVALIDATE_JOB, revalidateJobPayload } from './jobs.ts';
import { GenerationState as S, LineageStatus } from '../states/states.ts';
import { lineageStop } from './stop.ts';

const reviewer = { id: 'u-rey', email: 'rey@example.test', role: 'reviewer' };
const lead = { id: 'u-lee', email: 'lee@example.test', role: 'lead' };

let testDb: TestDb;
let db: Db;
let seed: string;
let count = 0;

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  seed = await seedEnvironment(db, { name: 'attention seed' });
});
afterAll(() => testDb.cleanup());

// A lineage whose first generation validated and whose second is held for a person.
async function heldLineage() {
  const lineage = await db.lineage.create({
    data: {
      name: `held ${++count}`,
      seedVersionId: seed,
      axisPolicy: '{"kind":"round-robin"}',
      effort: 'low',
      synthesiser: 'procedural',
      seed: 1,
      status: LineageStatus.needsAttention,
    },
  });
  const v1 = await seedEnvironment(db, { name: `g1 of ${lineage.id}` });
  const v2 = await seedEnvironment(db, { name: `g2 of ${lineage.id}` });
  const base = { lineageId: lineage.id, axis: 'length', effort: 'low' };
  await db.generation.create({ data: { ...base, number: 1, parentVersionId: seed, versionId: v1, state: S.awaitingReview } });
  const held = await db.generation.create({
    data: {
      ...base,
      number: 2,
      parentVersionId: v1,
      versionId: v2,
      state: S.needsAttention,
      revision: 4,
      error: 'held for a person: rubric reached no verdict',
    },
  });
  return { lineage, held };
}

const auditsOf = (id: string) => db.auditEvent.findMany({ where: { subjectId: id }, orderBy: { createdAt: 'asc' } });

describe('a lineage stopped at a needs-attention generation', () => {
  it('says where it stopped and which exits there are', async () => {
    const { lineage, held } = await heldLineage();
    const stop = await lineageStop(db, lineage.id);
    expect(stop).toMatchObject({ kind: 'needs-attention', generationId: held.id, number: 2 });
    expect(stop!.message).toContain(`envolve attention ${held.id} --retry`);
  });
});

describe('the exits', () => {
  it('discard: superseded with the reason, audited, and the lineage no longer stopped', async () => {
    const { lineage, held } = await heldLineage();
    const moved = await takeAttentionExit(db, reviewer, held.id, { exit: 'discard', reason: 'the check is broken, not the task', revision: 4 });
    expect(moved).toMatchObject({ state: S.superseded, revision: 5, error: 'superseded: discarded by rey@example.test: the check is broken, not the task' });
    const [audit] = await auditsOf(held.id);
    expect(audit).toMatchObject({ action: 'generation.discard', actorId: reviewer.id });
    expect(JSON.parse(audit!.after!)).toMatchObject({ state: S.superseded, revision: 5, reason: 'the check is broken, not the task' });
    expect(await lineageStop(db, lineage.id)).toBeNull();
    expect((await db.lineage.findUniqueOrThrow({ where: { id: lineage.id } })).status).toBe(LineageStatus.idle);
  });

  it('accept: only a lead, with a justification, and the generation goes to review', async () => {
    const { held } = await heldLineage();
    await expect(takeAttentionExit(db, reviewer, held.id, { exit: 'accept', justification: 'looked at it', revision: 4 })).rejects.toThrow(ForbiddenError);
    await expect(takeAttentionExit(db, lead, held.id, { exit: 'accept', justification: '   ', revision: 4 })).rejects.toThrow(/written justification/);
    const moved = await takeAttentionExit(db, lead, held.id, { exit: 'accept', justification: 'the check only times out on this runner', revision: 4 });
    expect(moved.state).toBe(S.awaitingReview);
    expect(moved.error).toBe(
      'accepted without a validator verdict by lee@example.test: the check only times out on this runner (it was held for a person: rubric reached no verdict)',
    );
    const audits = await auditsOf(held.id);
    expect(audits.map((a) => a.action)).toEqual(['generation.accept']);
    expect(JSON.parse(audits[0]!.after!)).toMatchObject({ justification: 'the check only times out on this runner' });
  });

  it('retry: moves to validating, queues the re-validation with its budget in the same transaction, and the lineage waits for it', async () => {
    const { lineage, held } = await heldLineage();
    const moved = await takeAttentionExit(db, reviewer, held.id, { exit: 'retry', budgetFactor: 4, revision: 4 });
    expect(moved).toMatchObject({ state: S.validating, revision: 5, versionId: held.versionId });
    const jobs = await db.job.findMany({ where: { kind: REVALIDATE_JOB } });
    expect(jobs.map((j) => revalidateJobPayload.parse(JSON.parse(j.payload)))).toContainEqual({ generationId: held.id, budgetFactor: 4 });
    expect((await auditsOf(held.id)).map((a) => a.action)).toEqual(['generation.retry']);
    expect(await lineageStop(db, lineage.id)).toMatchObject({ kind: 'revision-pending', number: 2 });
  });

  it('refuses a stale revision, a generation that is not held, and a second exit', async () => {
    const { held } = await heldLineage();
    await expect(takeAttentionExit(db, reviewer, held.id, { exit: 'discard', reason: 'x', revision: 3 })).rejects.toThrow(ConflictError);
    await takeAttentionExit(db, reviewer, held.id, { exit: 'discard', reason: 'x', revision: 4 });
    await expect(takeAttentionExit(db, reviewer, held.id, { exit: 'retry', budgetFactor: 2, revision: 5 })).rejects.toThrow(
      /only a generation that needs attention/,
    );
    expect((await auditsOf(held.id)).map((a) => a.action)).toEqual(['generation.discard']);
  });
});
