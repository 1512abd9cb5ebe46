import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../db/test-db.ts';
import { listAudit, recordAudit } from './record.ts';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => testDb.cleanup());

const actor = { id: 'u1', email: 'lead@example.test' };

describe('the audit log', () => {
  it('stores before and after as JSON and reads them back', async () => {
    const entry = await recordAudit(testDb.db, {
      actor,
      action: 'generation.approve',
      subjectType: 'generation',
      subjectId: 'g1',
      before: { state: 'awaiting-review', revision: 3 },
      after: { state: 'approved', revision: 4 },
    });
    const row = await testDb.db.auditEvent.findUniqueOrThrow({ where: { id: entry.id } });
    expect(JSON.parse(row.before ?? '')).toEqual({ state: 'awaiting-review', revision: 3 });
    expect(entry).toMatchObject({ actorEmail: actor.email, after: { state: 'approved', revision: 4 } });

    const created = await recordAudit(testDb.db, { actor, action: 'user.create', subjectType: 'user', subjectId: 'u2', after: { role: 'reviewer' } });
    expect(created.before).toBeUndefined();
    expect((await testDb.db.auditEvent.findUniqueOrThrow({ where: { id: created.id } })).before).toBeNull();
  });

  it('lists newest first, filters by subject and action, and pages with a cursor', async () => {
    const { db } = testDb;
    for (let i = 0; i < 5; i++) {
      await recordAudit(db, { actor, action: 'generation.reject', subjectType: 'generation', subjectId: 'g-paged', after: { n: i } });
    }
    const first = await listAudit(db, { subjectType: 'generation', subjectId: 'g-paged', limit: 2 });
    expect(first.entries.map((e) => (e.after as { n: number }).n)).toEqual([4, 3]);
    expect(first.nextCursor).not.toBeNull();
    const second = await listAudit(db, { subjectType: 'generation', subjectId: 'g-paged', limit: 2, cursor: first.nextCursor ?? undefined });
    expect(second.entries.map((e) => (e.after as { n: number }).n)).toEqual([2, 1]);
    const last = await listAudit(db, { subjectType: 'generation', subjectId: 'g-paged', limit: 2, cursor: second.nextCursor ?? undefined });
    expect(last.entries.map((e) => (e.after as { n: number }).n)).toEqual([0]);
    expect(last.nextCursor).toBeNull();

    expect((await listAudit(db, { action: 'user.create' })).entries.map((e) => e.subjectId)).toEqual(['u2']);
  });

  it('commits with the decision it records, inside one transaction', async () => {
    const { db } = testDb;
    await expect(
      db.$transaction(async (tx) => {
        await recordAudit(tx, { actor, action: 'rubric.activate', subjectType: 'rubric-item', subjectId: 'r-rolled-back' });
        throw new Error('the decision failed');
      }),
    ).rejects.toThrow('the decision failed');
    expect((await listAudit(db, { subjectId: 'r-rolled-back' })).entries).toEqual([]);
  });
});
