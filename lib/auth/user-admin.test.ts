import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { ForbiddenError, NotFoundError, RefusedError } from '../errors/index.ts';
import { changeUserActive, changeUserRole } from './user-admin.ts';
import { createUser } from './users.ts';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => testDb.cleanup());

async function account(email: string, role: 'admin' | 'lead' | 'reviewer') {
  const user = await createUser(testDb.db, { email, name: email.split('@')[0]!, role, password: 'long enough password' });
  return { id: user.id, email: user.email, role: user.role };
}

describe('an admin changing accounts (lib/auth/user-admin.ts)', () => {
  it('changes a role and records who did it in the same transaction', async () => {
    const admin = await account('ada@example.test', 'admin');
    const rae = await account('rae@example.test', 'reviewer');
    const { after } = await changeUserRole(testDb.db, admin, rae.id, 'lead');
    expect(after.role).toBe('lead');
    const audit = await testDb.db.auditEvent.findFirstOrThrow({ where: { subjectId: rae.id, action: 'user.role' } });
    expect(audit.actorEmail).toBe(admin.email);
    expect(JSON.parse(audit.after!)).toEqual({ email: rae.email, role: 'lead' });
  });

  it('refuses an admin demoting or deactivating themselves, and changes nothing', async () => {
    const admin = await account('solo@example.test', 'admin');
    await expect(changeUserRole(testDb.db, admin, admin.id, 'reviewer')).rejects.toThrow(RefusedError);
    await expect(changeUserActive(testDb.db, admin, admin.id, false)).rejects.toThrow('You cannot deactivate your own account.');
    const row = await testDb.db.user.findUniqueOrThrow({ where: { id: admin.id } });
    expect(row).toMatchObject({ role: 'admin', deactivatedAt: null });
    expect(await testDb.db.auditEvent.count({ where: { subjectId: admin.id } })).toBe(0);
  });

  it('refuses a caller without users.manage and an unknown account', async () => {
    const lead = await account('lee@example.test', 'lead');
    const admin = await account('adm@example.test', 'admin');
    await expect(changeUserRole(testDb.db, lead, admin.id, 'reviewer')).rejects.toThrow(ForbiddenError);
    await expect(changeUserActive(testDb.db, admin, 'no-such-user', false)).rejects.toThrow(NotFoundError);
  });

  it('audits an account made by an admin with the account itself', async () => {
    const admin = await account('maker@example.test', 'admin');
    const made = await createUser(testDb.db, { email: 'new@example.test', name: 'New', role: 'annotator', password: 'long enough password' }, admin);
    const audit = await testDb.db.auditEvent.findFirstOrThrow({ where: { subjectId: made.id, action: 'user.create' } });
    expect(audit.actorId).toBe(admin.id);
  });
});
