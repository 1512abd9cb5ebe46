import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  clearSignInCounts,
  DEFAULT_SIGN_IN_THROTTLE,
  SignInThrottle,
  SWEEP_BATCH,
  signInThrottleConfigFrom,
  type SignInThrottleConfig,
} from './sign-in-throttle.ts';
import { settingsFrom } from '../config/settings.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';

const config: SignInThrottleConfig = {
  ...DEFAULT_SIGN_IN_THROTTLE,
  maxAttemptsPerAccount: 5,
  maxAttemptsPerAddress: 20,
  accountCeiling: 12,
  slowdownMs: 1_500,
};

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => testDb.cleanup());
beforeEach(async () => {
  await testDb.db.signInCounter.deleteMany();
});

const throttle = (overrides: Partial<SignInThrottleConfig> = {}) => new SignInThrottle(testDb.db, { ...config, ...overrides });

async function attempts(t: SignInThrottle, n: number, account: string, address: (i: number) => string) {
  const decisions = [];
  for (let i = 0; i < n; i++) decisions.push(await t.begin({ account, address: address(i) }));
  return decisions;
}

describe('the sign-in throttle (counts in the database)', () => {
  it('30 guesses at one account from one address: 5 are tried, the sixth locks the pair, the rest find it locked', async () => {
    const decisions = await attempts(throttle(), 30, 'Ada@Example.test', () => '198.51.100.7');
    expect(decisions.slice(0, 5).every((d) => d.allowed)).toBe(true);
    expect(decisions[5]).toMatchObject({ allowed: false, locked: ['account'], retryAfterSeconds: 60 });
    expect(decisions.slice(6).every((d) => !d.allowed && d.locked.length === 0)).toBe(true);
    // Refused attempts count nowhere: the address has counted the six that reached the counters.
    const addressRow = await testDb.db.signInCounter.findUnique({ where: { key: 'signin-address:198.51.100.7' } });
    expect(addressRow?.points).toBe(6);
    // The same account typed differently is the same key.
    expect(await throttle().begin({ account: ' ada@example.TEST ', address: '198.51.100.7' })).toMatchObject({ allowed: false });
  });

  it('cannot be aimed: a locked pair leaves the account open from any other address', async () => {
    await attempts(throttle(), 6, 'admin@example.test', () => '203.0.113.66');
    expect(await throttle().begin({ account: 'admin@example.test', address: '203.0.113.66' })).toMatchObject({ allowed: false });
    expect(await throttle().begin({ account: 'admin@example.test', address: '192.0.2.1' })).toEqual({ allowed: true, slowdownMs: 0 });
  });

  it('30 guesses from one address across 30 accounts: refused after the address limit', async () => {
    const t = throttle();
    const decisions = [];
    for (let i = 0; i < 30; i++) decisions.push(await t.begin({ account: `user${i}@example.test`, address: '203.0.113.7' }));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
    expect(decisions[20]).toMatchObject({ allowed: false, locked: ['address'] });
    expect(decisions[21]).toMatchObject({ allowed: false, locked: [] });
  });

  it("a success clears only its own pair: signing in to one's own account does not reset the guesses at another", async () => {
    const t = throttle();
    await attempts(t, 4, 'victim@example.test', () => '198.51.100.9');
    await t.begin({ account: 'attacker@example.test', address: '198.51.100.9' });
    await t.succeeded({ account: 'attacker@example.test', address: '198.51.100.9' });
    expect(await t.begin({ account: 'victim@example.test', address: '198.51.100.9' })).toMatchObject({ allowed: true });
    expect(await t.begin({ account: 'victim@example.test', address: '198.51.100.9' })).toMatchObject({ allowed: false, locked: ['account'] });
    // The owner signing in from elsewhere leaves the attacker's pair locked.
    await t.succeeded({ account: 'victim@example.test', address: '192.0.2.5' });
    expect(await t.begin({ account: 'victim@example.test', address: '198.51.100.9' })).toMatchObject({ allowed: false });
  });

  it('two throttles over one database share their counts (two web processes)', async () => {
    const [a, b] = [throttle(), throttle()];
    await attempts(a, 3, 'shared@example.test', () => '198.51.100.20');
    await attempts(b, 2, 'shared@example.test', () => '198.51.100.20');
    expect(await a.begin({ account: 'shared@example.test', address: '198.51.100.20' })).toMatchObject({ allowed: false, locked: ['account'] });
  });

  it('each further lockout of a pair lasts twice as long, up to the maximum', async () => {
    // The address allows more than the four rounds' attempts, so only the pair locks.
    const t = throttle({ maxLockoutSeconds: 200, maxAttemptsPerAddress: 100 });
    const lockouts: number[] = [];
    for (let round = 0; round < 4; round++) {
      const decisions = await attempts(t, 6, 'slow@example.test', () => '198.51.100.30');
      const last = decisions[5]!;
      if (last.allowed) throw new Error('the sixth attempt was allowed');
      lockouts.push(last.retryAfterSeconds);
      // The lockout ends: its row's expiry passes.
      await testDb.db.signInCounter.updateMany({ where: { key: { startsWith: 'signin-pair:' } }, data: { expire: new Date(Date.now() - 1000) } });
    }
    expect(lockouts).toEqual([60, 120, 200, 200]);
  });

  it('past the account ceiling, attempts from fresh addresses are slowed, never refused', async () => {
    const decisions = await attempts(throttle(), 20, 'popular@example.test', (i) => `198.51.100.${100 + i}`);
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(decisions.slice(0, 12).map((d) => (d.allowed ? d.slowdownMs : -1))).toEqual(Array(12).fill(0));
    expect(decisions.slice(12).map((d) => (d.allowed ? d.slowdownMs : -1))).toEqual(Array(8).fill(1_500));
  });

  it('clearSignInCounts (a password reset) lifts every lock of the account, and no other', async () => {
    await attempts(throttle(), 6, 'reset@example.test', () => '198.51.100.40');
    await attempts(throttle(), 6, 'other@example.test', () => '198.51.100.40');
    await clearSignInCounts(testDb.db, 'Reset@example.test');
    expect(await throttle().begin({ account: 'reset@example.test', address: '198.51.100.40' })).toMatchObject({ allowed: true });
    expect(await throttle().begin({ account: 'other@example.test', address: '198.51.100.40' })).toMatchObject({ allowed: false });
  });

  it('a refused attempt writes nothing: 2,000 attempts from a locked address at 2,000 unknown accounts add a bounded number of rows', async () => {
    const t = throttle();
    const table = () => testDb.db.signInCounter.findMany({ orderBy: { key: 'asc' } });
    const address = '203.0.113.99';
    const first = [];
    for (let i = 0; i <= config.maxAttemptsPerAddress; i++) first.push(await t.begin({ account: `nobody${i}@example.test`, address }));
    expect(first.filter((d) => d.allowed)).toHaveLength(config.maxAttemptsPerAddress);
    expect(first.at(-1)).toMatchObject({ allowed: false, locked: ['address'] });
    const afterLock = await table();
    // Each counted attempt wrote one pair and one account row; the address wrote its counter and its lockout.
    expect(afterLock).toHaveLength(2 * config.maxAttemptsPerAddress + 2);

    const refused = [];
    for (let i = config.maxAttemptsPerAddress + 1; i < 2_000; i++) refused.push(await t.begin({ account: `nobody${i}@example.test`, address }));
    expect(refused.every((d) => !d.allowed && d.locked.length === 0)).toBe(true);
    expect(await table()).toEqual(afterLock);
  });

  it('an attempt at a locked pair writes nothing, not even on the address counter', async () => {
    const t = throttle();
    await attempts(t, 6, 'locked@example.test', () => '198.51.100.60');
    const before = await testDb.db.signInCounter.findMany({ orderBy: { key: 'asc' } });
    const refused = await attempts(t, 50, 'locked@example.test', () => '198.51.100.60');
    expect(refused.every((d) => !d.allowed && d.retryAfterSeconds > 0)).toBe(true);
    expect(await testDb.db.signInCounter.findMany({ orderBy: { key: 'asc' } })).toEqual(before);
  });

  it('a counted attempt sweeps expired rows, at most SWEEP_BATCH of them, and never a live one', async () => {
    const past = new Date(Date.now() - 60_000);
    const stale = Array.from({ length: SWEEP_BATCH + 10 }, (_, i) => ({
      key: `signin-pair:stale${String(i).padStart(3, '0')}|192.0.2.1`,
      points: 1,
      expire: past,
    }));
    await testDb.db.signInCounter.createMany({ data: stale });
    await testDb.db.signInCounter.create({ data: { key: 'signin-address:192.0.2.2', points: 3, expire: new Date(Date.now() + 600_000) } });
    await throttle().begin({ account: 'sweeper@example.test', address: '198.51.100.70' });
    expect(await testDb.db.signInCounter.count({ where: { expire: { lt: new Date() } } })).toBe(10);
    expect(await testDb.db.signInCounter.findUnique({ where: { key: 'signin-address:192.0.2.2' } })).toMatchObject({ points: 3 });
    await throttle().begin({ account: 'sweeper@example.test', address: '198.51.100.70' });
    expect(await testDb.db.signInCounter.count({ where: { expire: { lt: new Date() } } })).toBe(0);
  });

  it('stores no typed account text', async () => {
    await throttle().begin({ account: 'ada granted root to mallory', address: '198.51.100.50' });
    const keys = (await testDb.db.signInCounter.findMany({ select: { key: true } })).map((r) => r.key);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join(' ')).not.toContain('mallory');
  });
});

describe('the throttle configuration', () => {
  it('comes from the settings, with the defaults for what they do not set', () => {
    const fromSettings = signInThrottleConfigFrom(
      settingsFrom({ ENVOLVE_SIGNIN_MAX_ATTEMPTS_PER_ADDRESS: '1000', ENVOLVE_SIGNIN_LOCKOUT_SECONDS: '30' }).signIn,
    );
    expect(fromSettings).toMatchObject({
      maxAttemptsPerAccount: 5,
      maxAttemptsPerAddress: 1000,
      lockoutSeconds: 30,
      maxLockoutSeconds: 3600,
      accountCeiling: 100,
    });
    expect(() => settingsFrom({ ENVOLVE_SIGNIN_WINDOW_SECONDS: 'soon' })).toThrow(/ENVOLVE_SIGNIN_WINDOW_SECONDS: expected a whole number/);
  });
});
