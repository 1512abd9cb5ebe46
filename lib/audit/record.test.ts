import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { auditFacets, listAudit, recordAudit, recordSessionAudit } from './record.ts';

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

  it('extends a session entry in place while it is active, per actor and subject, and lists the actions and subject types held', async () => {
    const { db } = testDb;
    const t0 = new Date('2032-01-01T00:00:00Z');
    const tick = (who: typeof actor, subjectId: string, minutes: number, n: number) =>
      recordSessionAudit(db, {
        actor: who,
        action: 'test.session',
        subjectType: 'session-subject',
        subjectId,
        idleMs: 10 * 60_000,
        now: new Date(t0.getTime() + minutes * 60_000),
        extend: (previous) => ({ ticks: [...((previous?.ticks as number[] | undefined) ?? []), n] }),
      });
    const first = await tick(actor, 's1', 0, 1);
    expect((await tick(actor, 's1', 5, 2)).id).toBe(first.id);
    expect((await tick({ id: 'u9', email: 'other@example.test' }, 's1', 6, 3)).id).not.toBe(first.id);
    expect((await tick(actor, 's2', 7, 4)).id).not.toBe(first.id);
    const later = await tick(actor, 's1', 16, 5);
    expect(later.id).not.toBe(first.id);
    const stored = await listAudit(db, { action: 'test.session', subjectId: 's1' });
    expect(stored.entries.map((e) => e.after)).toEqual([
      { ticks: [5], lastAt: '2032-01-01T00:16:00.000Z' },
      { ticks: [3], lastAt: '2032-01-01T00:06:00.000Z' },
      { ticks: [1, 2], lastAt: '2032-01-01T00:05:00.000Z' },
    ]);

    const facets = await auditFacets(db);
    expect(facets.actions).toEqual(expect.arrayContaining(['generation.approve', 'user.create', 'test.session']));
    expect(facets.subjectTypes).toEqual(expect.arrayContaining(['generation', 'user', 'session-subject']));
    expect(new Set(facets.actions).size).toBe(facets.actions.length);
  });
});
