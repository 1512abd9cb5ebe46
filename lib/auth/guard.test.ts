import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';
import { createApiToken, createUser, revokeApiToken } from './users.ts';
import { servedOrigins } from '../net/origins.ts';
import { decide as decideWith, type SessionUser } from './guard.ts';
import { can, PERMISSIONS, ROLES, type Permission, type Role } from './roles.ts';
import { settingsFrom } from '../config/settings.ts';

let testDb: TestDb;
const users = {} as Record<Role, SessionUser>;

beforeAll(async () => {
  testDb = await createTestDb();
  for (const role of ROLES) {
    const created = await createUser(testDb.db, { email: `${role}@guard.test`, name: role, role, password: 'a long test password' });
    users[role] = { id: created.id, email: created.email, name: created.name, role };
  }
});
afterAll(async () => testDb.cleanup());

const HOST = '127.0.0.1:3000';
function request(method: string, headers: Record<string, string> = {}): Request {
  return new Request(`http://${HOST}/api/anything`, { method, headers: { host: HOST, ...headers } });
}
const signedIn = (user: SessionUser | null) => async () => user;
// Served as configured by default: HOST=127.0.0.1 PORT=3000.
const SERVED = servedOrigins(settingsFrom({ HOST: '127.0.0.1', PORT: '3000' }).web);
const decide = (db: TestDb['db'], req: Request, permission: Permission, user: () => Promise<SessionUser | null>) =>
  decideWith(db, req, permission, user, SERVED);

// The policy written out by role, independently of the table in roles.ts: the guard is checked
// against it, so a change to the table that nobody meant shows up here.
const EXPECTED: Record<Role, readonly Permission[]> = {
  admin: Object.keys(PERMISSIONS) as Permission[],
  lead: [
    'dashboard.read',
    'generation.decide',
    'generation.comment',
    'generation.accept-held',
    'missed-issue.file',
    'rubric.manage',
    'audit.read',
    'lineage.configure',
    'environment.validate',
    'calibration.label',
    'calibration.manage',
    'trajectories.read',
    'trajectory.flag',
    'drift.read',
    'scheduler.manage',
    'metrics.read',
  ],
  reviewer: [
    'dashboard.read',
    'generation.decide',
    'generation.comment',
    'missed-issue.file',
    'environment.validate',
    'trajectories.read',
    'trajectory.flag',
    'drift.read',
  ],
  annotator: ['calibration.label'],
  trainer: ['metrics.read', 'trainer.api', 'api-tokens.own'],
};

describe('the permission matrix', () => {
  const cases = ROLES.flatMap((role) => (Object.keys(PERMISSIONS) as Permission[]).map((permission) => [role, permission] as const));
  it.each(cases)('%s / %s: the guard lets through exactly what the policy grants', async (role, permission) => {
    const decision = await decide(testDb.db, request('GET'), permission, signedIn(users[role]));
    expect(decision.ok).toBe(EXPECTED[role].includes(permission));
    if (!decision.ok) expect(decision).toMatchObject({ status: 403, error: 'forbidden' });
  });

  it('pins the decisive rows: annotators never decide, only admins manage users, trainer tokens only reach the machine APIs (training and metrics)', () => {
    expect(ROLES.filter((r) => can(r, 'generation.decide'))).toEqual(['admin', 'lead', 'reviewer']);
    expect(ROLES.filter((r) => can(r, 'users.manage'))).toEqual(['admin']);
    expect(ROLES.filter((r) => can(r, 'audit.read'))).toEqual(['admin', 'lead']);
    // And their own tokens, which only the /tokens page (signed in with a session, never a token) makes and revokes.
    expect((Object.keys(PERMISSIONS) as Permission[]).filter((p) => can('trainer', p))).toEqual(['metrics.read', 'trainer.api', 'api-tokens.own']);
  });

  it('answers 401 without a session', async () => {
    expect(await decide(testDb.db, request('GET'), 'dashboard.read', signedIn(null))).toMatchObject({ ok: false, status: 401, error: 'unauthenticated' });
  });
});

describe('the Origin check on cookie-authenticated mutations', () => {
  it('lets a same-origin POST through and refuses a foreign, missing or opaque Origin', async () => {
    const post = (origin?: string) => request('POST', origin ? { origin } : {});
    expect(await decide(testDb.db, post(`http://${HOST}`), 'generation.decide', signedIn(users.reviewer))).toMatchObject({ ok: true });
    for (const bad of [post('http://evil.example'), post(), post('null'), post(`http://${HOST}.evil.example`)]) {
      expect(await decide(testDb.db, bad, 'generation.decide', signedIn(users.reviewer))).toMatchObject({ ok: false, status: 403, error: 'cross_origin' });
    }
  });

  it('checks Origin before the role, and never on reads', async () => {
    expect(await decide(testDb.db, request('GET', { origin: 'http://evil.example' }), 'dashboard.read', signedIn(users.reviewer))).toMatchObject({ ok: true });
    expect(await decide(testDb.db, request('DELETE', { origin: 'http://evil.example' }), 'users.manage', signedIn(users.annotator))).toMatchObject({
      error: 'cross_origin',
    });
  });

  it('compares scheme, host and port with the configured origins, whatever the forwarded headers say', async () => {
    const post = (headers: Record<string, string>) => request('POST', headers);
    const refused = { ok: false, status: 403, error: 'cross_origin' };
    expect(await decide(testDb.db, post({ origin: 'http://localhost:3000' }), 'generation.decide', signedIn(users.reviewer))).toMatchObject({ ok: true });
    for (const origin of [`https://${HOST}`, 'http://127.0.0.1:3001', 'http://127.0.0.1']) {
      expect(await decide(testDb.db, post({ origin }), 'generation.decide', signedIn(users.reviewer))).toMatchObject(refused);
    }
    // A client-set X-Forwarded-Host does not make its own origin "this host".
    const spoofed = post({ origin: 'https://evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
    expect(await decide(testDb.db, spoofed, 'generation.decide', signedIn(users.reviewer))).toMatchObject(refused);
  });

  it('behind a public URL, only that origin is accepted', async () => {
    const served = servedOrigins(settingsFrom({ BETTER_AUTH_URL: 'https://envolve.example.org/', HOST: '127.0.0.1', PORT: '3000' }).web);
    const from = (origin: string) => request('POST', { origin });
    expect(await decideWith(testDb.db, from('https://envolve.example.org'), 'generation.decide', signedIn(users.reviewer), served)).toMatchObject({ ok: true });
    expect(await decideWith(testDb.db, from('http://envolve.example.org'), 'generation.decide', signedIn(users.reviewer), served)).toMatchObject({ ok: false });
    expect(await decideWith(testDb.db, from(`http://${HOST}`), 'generation.decide', signedIn(users.reviewer), served)).toMatchObject({ ok: false });
  });
});

describe('bearer API tokens', () => {
  it('authenticates by token without a session or Origin, refuses bad and revoked tokens', async () => {
    const { db } = testDb;
    const { id, token } = await createApiToken(db, users.trainer.id, 'trainer box');
    const withToken = (value: string) => request('POST', { authorization: `Bearer ${value}` });
    const noSession = signedIn(null);

    expect(await decide(db, withToken(token), 'trainer.api', noSession)).toMatchObject({ ok: true, via: 'token', user: { id: users.trainer.id } });
    expect(await decide(db, withToken(token), 'dashboard.read', noSession)).toMatchObject({ ok: false, status: 403, error: 'forbidden' });
    expect(await decide(db, withToken('envolve_not-a-token'), 'trainer.api', noSession)).toMatchObject({ ok: false, status: 401, error: 'invalid_token' });

    // A bad token is refused even when a session cookie would have been accepted.
    expect(await decide(db, withToken('envolve_not-a-token'), 'trainer.api', signedIn(users.admin))).toMatchObject({ ok: false, status: 401 });

    await revokeApiToken(db, id);
    expect(await decide(db, withToken(token), 'trainer.api', noSession)).toMatchObject({ ok: false, status: 401, error: 'invalid_token' });
  });
});
