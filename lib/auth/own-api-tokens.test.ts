// A person's own API tokens from the dashboard, against a real database.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ZodError } from 'zod';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { ForbiddenError } from '../errors/index.ts';
import type { Actor } from './actor.ts';
import { verifyApiToken } from './api-tokens.ts';
import { ApiTokenNotFoundError, createOwnApiToken, listOwnApiTokens, revokeOwnApiToken } from './own-api-tokens.ts';

let testDb: TestDb;
const trainer: Actor = { id: 'u-trainer', email: 'trainer@example.test', role: 'trainer' };
const other: Actor = { id: 'u-other', email: 'other@example.test', role: 'trainer' };
const reviewer: Actor = { id: 'u-reviewer', email: 'reviewer@example.test', role: 'reviewer' };
const labTrainer: Actor = { id: 'u-lab', email: 'lab@example.test', role: 'trainer' };

beforeAll(async () => {
  testDb = await createTestDb();
  for (const a of [trainer, other, reviewer, labTrainer]) await testDb.db.user.create({ data: { id: a.id!, email: a.email, name: a.email, role: a.role } });
});
afterAll(() => testDb.cleanup());

describe('own API tokens', () => {
  it('makes a named token that works, lists only the owner’s, and revokes it at once', async () => {
    const { db } = testDb;
    const made = await createOwnApiToken(db, trainer, '  gpu box 1 ');
    expect(made.name).toBe('gpu box 1');
    expect(await verifyApiToken(db, made.token)).toMatchObject({ id: trainer.id });
    await createOwnApiToken(db, other, 'someone else’s');

    const listed = await listOwnApiTokens(db, trainer);
    expect(listed).toEqual([
      { id: made.id, name: 'gpu box 1', policies: ['trainer'], createdAt: expect.any(Date), lastUsedAt: expect.any(Date), revokedAt: null },
    ]);
    expect(JSON.stringify(listed)).not.toContain(made.token);

    // Another trainer cannot revoke it, nor learn that it exists.
    await expect(revokeOwnApiToken(db, other, made.id)).rejects.toThrow(ApiTokenNotFoundError);
    const revoked = await revokeOwnApiToken(db, trainer, made.id);
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    // The verification remembered a moment ago is forgotten: the revocation holds at once.
    expect(await verifyApiToken(db, made.token)).toBeNull();
    expect((await revokeOwnApiToken(db, trainer, made.id)).revokedAt).toEqual(revoked.revokedAt);

    const audit = await db.auditEvent.findMany({ where: { subjectType: 'user', subjectId: trainer.id! }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((e) => e.action)).toEqual(['api-token.create', 'api-token.revoke']);
    expect(audit.map((e) => e.after).join('')).not.toContain(made.token);
  });

  it('names the policies a token reports for, in the token, its verification and the audit', async () => {
    const { db } = testDb;
    const named = await createOwnApiToken(db, labTrainer, 'policy box', 'trainer-b, trainer-c');
    expect(named.policies).toEqual(['trainer-b', 'trainer-c']);
    expect(await verifyApiToken(db, named.token)).toMatchObject({ token: { id: named.id, policies: ['trainer-b', 'trainer-c'] } });
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: 'api-token.create', after: { contains: named.id } } });
    expect(JSON.parse(audit.after ?? '{}')).toMatchObject({ policies: ['trainer-b', 'trainer-c'] });
  });

  it('lists active tokens first', async () => {
    const { db } = testDb;
    const old = await createOwnApiToken(db, other, 'old');
    await revokeOwnApiToken(db, other, old.id);
    await createOwnApiToken(db, other, 'current');
    expect((await listOwnApiTokens(db, other)).map((t) => [t.name, t.revokedAt === null])).toEqual([
      ['current', true],
      ['someone else’s', true],
      ['old', false],
    ]);
  });

  it('refuses a role without tokens and an empty or overlong name', async () => {
    const { db } = testDb;
    await expect(createOwnApiToken(db, reviewer, 'x')).rejects.toThrow(ForbiddenError);
    await expect(listOwnApiTokens(db, reviewer)).rejects.toThrow(ForbiddenError);
    await expect(createOwnApiToken(db, trainer, '   ')).rejects.toThrow(ZodError);
    await expect(createOwnApiToken(db, trainer, 'x'.repeat(81))).rejects.toThrow(ZodError);
  });

  it('keeps one verified-token memory however many copies of the module are loaded, as Next.js bundles load them', async () => {
    const { db } = testDb;
    const made = await createOwnApiToken(db, trainer, 'bundled');
    vi.resetModules();
    // A second instance of the module, as a second route bundle has.
    const secondInstance = './api-tokens.ts?second-bundle';
    const copy = (await import(secondInstance)) as typeof import('./api-tokens.ts');
    expect(copy.verifyApiToken).not.toBe(verifyApiToken);
    expect(await copy.verifyApiToken(db, made.token)).toMatchObject({ id: trainer.id });
    await revokeOwnApiToken(db, trainer, made.id);
    expect(await copy.verifyApiToken(db, made.token)).toBeNull();
  });
});
