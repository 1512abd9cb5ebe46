import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordProblem } from './password-policy.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { createAuth } from './better-auth.ts';
import {
  createApiToken,
  createUser,
  listApiTokens,
  listUsers,
  revokeApiToken,
  setPassword,
  setUserActive,
  setUserRole,
  UserNotFoundError,
  verifyApiToken,
} from './users.ts';
import { LAST_USED_RESOLUTION_MS } from './api-tokens.ts';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => testDb.cleanup());

describe('accounts through better-auth', () => {
  it('creates a user whose password better-auth accepts at sign-in, and no other', async () => {
    const { db } = testDb;
    const user = await createUser(db, { email: 'Rae@Example.test', name: 'Rae', role: 'reviewer', password: 'correct horse battery' });
    expect(user).toMatchObject({ email: 'rae@example.test', name: 'Rae', role: 'reviewer' });

    const account = await db.account.findFirstOrThrow({ where: { userId: user.id } });
    expect(account.providerId).toBe('credential');
    expect(account.password).not.toContain('correct horse');

    const auth = createAuth(db, { secret: 'a-test-secret-of-thirty-two-characters' });
    const signedIn = await auth.api.signInEmail({ body: { email: 'rae@example.test', password: 'correct horse battery' } });
    expect(signedIn.user.id).toBe(user.id);
    await expect(auth.api.signInEmail({ body: { email: 'rae@example.test', password: 'wrong password!' } })).rejects.toThrow();
  });

  it('sets a new password: the new one signs in, the old one no longer does', async () => {
    const { db } = testDb;
    await createUser(db, { email: 'kim@example.test', name: 'Kim', role: 'lead', password: 'the first password' });
    await setPassword(db, 'kim@example.test', 'the second password');
    const auth = createAuth(db, { secret: 'a-test-secret-of-thirty-two-characters' });
    await expect(auth.api.signInEmail({ body: { email: 'kim@example.test', password: 'the first password' } })).rejects.toThrow();
    const signedIn = await auth.api.signInEmail({ body: { email: 'kim@example.test', password: 'the second password' } });
    expect(signedIn.user.email).toBe('kim@example.test');
    await expect(setPassword(db, 'nobody@example.test', 'long enough password')).rejects.toThrow(/no user/);
  });

  it('refuses duplicates, short passwords and unknown roles', async () => {
    const { db } = testDb;
    await createUser(db, { email: 'dup@example.test', name: 'Dup', role: 'lead', password: 'long enough password' });
    await expect(createUser(db, { email: 'DUP@example.test', name: 'Dup', role: 'lead', password: 'long enough password' })).rejects.toThrow(/already exists/);
    await expect(createUser(db, { email: 'short@example.test', name: 'S', role: 'lead', password: 'short' })).rejects.toThrow(/at least/);
    await expect(createUser(db, { email: 'x@example.test', name: 'X', role: 'root' as 'admin', password: 'long enough password' })).rejects.toThrow(
      /unknown role/,
    );
  });

  it('keeps visitors from signing themselves up', async () => {
    const auth = createAuth(testDb.db, { secret: 'a-test-secret-of-thirty-two-characters' });
    await expect(auth.api.signUpEmail({ body: { email: 'self@example.test', name: 'Self', password: 'long enough password' } })).rejects.toThrow(
      /not enabled/i,
    );
  });

  it('changes roles and lists users', async () => {
    const { db } = testDb;
    const user = await createUser(db, { email: 'ann@example.test', name: 'Ann', role: 'annotator', password: 'long enough password' });
    const { before, after } = await setUserRole(db, user.id, 'lead');
    expect(before.role).toBe('annotator');
    expect(after.role).toBe('lead');
    expect((await listUsers(db)).map((u) => u.email)).toContain('ann@example.test');
  });
});

describe('sessions end with the password', () => {
  const secret = 'a-test-secret-of-thirty-two-characters';
  const sessionOf = async (auth: ReturnType<typeof createAuth>, email: string, password: string) => {
    const { headers } = await auth.api.signInEmail({ body: { email, password }, returnHeaders: true });
    const cookie = headers.get('set-cookie')!.split(';')[0]!;
    return new Headers({ cookie });
  };

  it('an admin reset (setPassword, as `envolve users set-password` calls it) signs the account out everywhere', async () => {
    const { db } = testDb;
    const user = await createUser(db, { email: 'reset@example.test', name: 'Reset', role: 'reviewer', password: 'the first password' });
    const auth = createAuth(db, { secret });
    const laptop = await sessionOf(auth, 'reset@example.test', 'the first password');
    const phone = await sessionOf(auth, 'reset@example.test', 'the first password');
    expect(await auth.api.getSession({ headers: laptop })).toMatchObject({ user: { id: user.id } });
    await setPassword(db, 'reset@example.test', 'the second password');
    expect(await auth.api.getSession({ headers: laptop })).toBeNull();
    expect(await auth.api.getSession({ headers: phone })).toBeNull();
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);
  });

  it("changing one's own password ends every other session and keeps the one that changed it", async () => {
    const { db } = testDb;
    const user = await createUser(db, { email: 'change@example.test', name: 'Change', role: 'reviewer', password: 'the first password' });
    const auth = createAuth(db, { secret });
    const here = await sessionOf(auth, 'change@example.test', 'the first password');
    const elsewhere = await sessionOf(auth, 'change@example.test', 'the first password');
    const { headers } = await auth.api.changePassword({
      body: { currentPassword: 'the first password', newPassword: 'the second password' },
      headers: here,
      returnHeaders: true,
    });
    expect(await auth.api.getSession({ headers: elsewhere })).toBeNull();
    const renewed = new Headers({ cookie: headers.get('set-cookie')!.split(';')[0]! });
    expect(await auth.api.getSession({ headers: renewed })).toMatchObject({ user: { id: user.id } });
    expect(await db.session.count({ where: { userId: user.id } })).toBe(1);
  });

  it('a changed password must pass the policy too', async () => {
    const { db } = testDb;
    await createUser(db, { email: 'weak@example.test', name: 'Weak', role: 'reviewer', password: 'the first password' });
    const auth = createAuth(db, { secret });
    const here = await sessionOf(auth, 'weak@example.test', 'the first password');
    await expect(auth.api.changePassword({ body: { currentPassword: 'the first password', newPassword: 'password1234' }, headers: here })).rejects.toThrow(
      /too easy to guess/,
    );
  });

  it("change-password refuses the account's own email, which the policy alone would let through", async () => {
    const { db } = testDb;
    const email = 'zyqoxa.vuretlim@kalomirdex.test';
    expect(passwordProblem(email)).toBeNull();
    await createUser(db, { email, name: 'Zyqoxa Vuretlim', role: 'reviewer', password: 'the first password' });
    const auth = createAuth(db, { secret });
    const here = await sessionOf(auth, email, 'the first password');
    await expect(auth.api.changePassword({ body: { currentPassword: 'the first password', newPassword: email }, headers: here })).rejects.toThrow(
      /too easy to guess/,
    );
  });

  it('a deactivated account fails sign-in with a wrong password exactly as an unknown one', async () => {
    const { db } = testDb;
    const user = await createUser(db, { email: 'gone@example.test', name: 'Gone', role: 'reviewer', password: 'the first password' });
    await setUserActive(db, user.id, false);
    const auth = createAuth(db, { secret });
    const failure = (email: string) =>
      auth.api.signInEmail({ body: { email, password: 'not the password' } }).then(
        () => null,
        (err: { status: string; body: unknown }) => ({ status: err.status, body: err.body }),
      );
    const [deactivated, unknown] = [await failure('gone@example.test'), await failure('nobody@example.test')];
    expect(deactivated).toEqual(unknown);
    expect(unknown).toMatchObject({ status: 'UNAUTHORIZED', body: { code: 'INVALID_EMAIL_OR_PASSWORD' } });
    // With its password, its owner is told why, so as not to retry into a lockout.
    await expect(auth.api.signInEmail({ body: { email: 'gone@example.test', password: 'the first password' } })).rejects.toMatchObject({
      status: 'FORBIDDEN',
      statusCode: 403,
      body: { code: 'ACCOUNT_DEACTIVATED', message: 'This account is deactivated; ask an admin to reactivate it.' },
    });
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe('the password policy', () => {
  it('refuses common passwords, repeated characters, sequences and the account’s own email or name', async () => {
    const { db } = testDb;
    for (const password of ['password1234', 'aaaaaaaaaaaaaaaa', 'abcdefghijkl', '1234567890', 'qwertyuiop12']) {
      await expect(createUser(db, { email: 'p@example.test', name: 'P', role: 'lead', password })).rejects.toThrow(/too easy to guess/);
    }
    await expect(
      createUser(db, { email: 'margaretha@example.test', name: 'Margaretha Vandersloot', role: 'lead', password: 'margarethavandersloot' }),
    ).rejects.toThrow(/too easy to guess/);
    await createUser(db, { email: 'kim2@example.test', name: 'Kim', role: 'lead', password: 'the first password' });
    await expect(setPassword(db, 'kim2@example.test', 'iloveyou2024')).rejects.toThrow(/too easy to guess/);
  });
});

describe('deactivating an account', () => {
  it('ends its sessions, refuses its sign-in, revokes its API tokens, and can be undone without reviving them', async () => {
    const { db } = testDb;
    const user = await createUser(db, { email: 'leaver@example.test', name: 'Leaver', role: 'trainer', password: 'long enough password' });
    const auth = createAuth(db, { secret: 'a-test-secret-of-thirty-two-characters' });
    await auth.api.signInEmail({ body: { email: 'leaver@example.test', password: 'long enough password' } });
    const { token } = await createApiToken(db, user.id, 'trainer box');
    expect(await verifyApiToken(db, token)).toMatchObject({ id: user.id });

    const { before, after } = await setUserActive(db, user.id, false);
    expect(before.deactivatedAt).toBeNull();
    expect(after.deactivatedAt).toBeInstanceOf(Date);
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);
    expect(await verifyApiToken(db, token)).toBeNull();
    await expect(auth.api.signInEmail({ body: { email: 'leaver@example.test', password: 'long enough password' } })).rejects.toMatchObject({
      status: 'FORBIDDEN',
      body: { code: 'ACCOUNT_DEACTIVATED', message: 'This account is deactivated; ask an admin to reactivate it.' },
    });
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);

    await setUserActive(db, user.id, true);
    // Issue 30: a token that stopped working on deactivation stays revoked; the account needs a new one.
    expect(await verifyApiToken(db, token)).toBeNull();
    expect(await db.apiToken.findFirst({ where: { userId: user.id }, select: { revokedAt: true } })).toMatchObject({ revokedAt: expect.any(Date) });
    expect((await auth.api.signInEmail({ body: { email: 'leaver@example.test', password: 'long enough password' } })).user.id).toBe(user.id);
  });

  it('names an unknown account instead of failing deep in the database', async () => {
    await expect(setUserActive(testDb.db, 'no-such-user', false)).rejects.toThrow(UserNotFoundError);
    await expect(setUserRole(testDb.db, 'no-such-user', 'lead')).rejects.toThrow(UserNotFoundError);
  });
});

describe('API tokens', () => {
  it('stores only a hash, verifies, records use, and refuses revoked tokens', async () => {
    const { db } = testDb;
    const user = await createUser(db, { email: 'tia@example.test', name: 'Tia', role: 'trainer', password: 'long enough password' });
    const created = await createApiToken(db, user.id, 'trainer box');
    const row = await db.apiToken.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.tokenHash).not.toContain(created.token);
    expect(row.lastUsedAt).toBeNull();

    expect(await verifyApiToken(db, created.token)).toMatchObject({ id: user.id, role: 'trainer' });
    const firstUse = (await db.apiToken.findUniqueOrThrow({ where: { id: created.id } })).lastUsedAt;
    expect(firstUse).not.toBeNull();
    expect(await verifyApiToken(db, `${created.token}x`)).toBeNull();

    // Kept to the minute: a use within it writes nothing; a use after it moves the time.
    await verifyApiToken(db, created.token);
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: created.id } })).lastUsedAt).toEqual(firstUse);
    const longAgo = new Date(Date.now() - LAST_USED_RESOLUTION_MS - 1_000);
    await db.apiToken.update({ where: { id: created.id }, data: { lastUsedAt: longAgo } });
    await verifyApiToken(db, created.token, Date.now() + 2_000); // past the remembered verification
    expect((await db.apiToken.findUniqueOrThrow({ where: { id: created.id } })).lastUsedAt!.getTime()).toBeGreaterThan(longAgo.getTime());

    const revoked = await revokeApiToken(db, created.id);
    expect(revoked).toMatchObject({ id: created.id, name: 'trainer box', user: 'tia@example.test' });
    expect(await verifyApiToken(db, created.token)).toBeNull();
    // Listed without the token; revoking again keeps the first time; an unknown id is named.
    expect((await listApiTokens(db)).find((t) => t.id === created.id)).toEqual(revoked);
    expect(JSON.stringify(await listApiTokens(db))).not.toContain(created.token);
    expect((await revokeApiToken(db, created.id)).revokedAt).toEqual(revoked.revokedAt);
    await expect(revokeApiToken(db, 'nope')).rejects.toThrow('no API token with id nope');
  });

  it('remembers a verified token for a second: changes in this process apply at once, from elsewhere within the second', async () => {
    const { db } = testDb;
    const user = await createUser(db, { email: 'tom@example.test', name: 'Tom', role: 'trainer', password: 'long enough password' });
    const { id, token } = await createApiToken(db, user.id, 'trainer box');
    const at = Date.now();
    expect(await verifyApiToken(db, token, at)).toMatchObject({ role: 'trainer' });

    // A role change through this process's code is seen on the next call.
    await setUserRole(db, user.id, 'lead');
    expect(await verifyApiToken(db, token, at + 1)).toMatchObject({ role: 'lead' });

    // Revoked by another process (a direct write): remembered until the second is over, then refused.
    await db.apiToken.update({ where: { id }, data: { revokedAt: new Date() } });
    expect(await verifyApiToken(db, token, at + 500)).toMatchObject({ role: 'lead' });
    expect(await verifyApiToken(db, token, at + 1_500)).toBeNull();
  });
});
