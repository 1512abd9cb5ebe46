import { describe, expect, it } from 'vitest';
import { DEFAULT_SIGN_IN_THROTTLE, SignInThrottle, signInThrottleConfigFrom } from './sign-in-throttle.ts';
import { settingsFrom } from '../config/settings.ts';

// A clock the test moves by hand: the throttle counts attempts, it never measures speed.
function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (seconds: number) => (now += seconds * 1000) };
}

const config = { ...DEFAULT_SIGN_IN_THROTTLE, maxAttemptsPerAccount: 5, maxAttemptsPerAddress: 20 };

describe('the sign-in throttle', () => {
  it('30 guesses at one account: the first 5 are tried, the rest refused, whatever address each claims', () => {
    const throttle = new SignInThrottle(config, clock().now);
    const outcomes = Array.from({ length: 30 }, (_, i) => throttle.begin({ account: 'Ada@Example.test', address: `198.51.100.${i}` }).allowed);
    expect(outcomes.slice(0, 5)).toEqual([true, true, true, true, true]);
    expect(outcomes.slice(5).every((allowed) => !allowed)).toBe(true);
    // The account is locked for everyone, the right password included.
    expect(throttle.begin({ account: 'ada@example.test', address: '192.0.2.1' })).toMatchObject({ allowed: false });
  });

  it('30 guesses from one address across 30 accounts: refused after the address limit', () => {
    const throttle = new SignInThrottle(config, clock().now);
    const outcomes = Array.from({ length: 30 }, (_, i) => throttle.begin({ account: `user${i}@example.test`, address: '203.0.113.7' }));
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(20);
    expect(outcomes[20]).toMatchObject({ allowed: false, locked: ['address'] });
    expect(outcomes[21]).toMatchObject({ allowed: false, locked: [] });
  });

  it('says how long to wait, and each further lockout in the window doubles it', () => {
    const time = clock();
    const throttle = new SignInThrottle({ ...config, lockoutSeconds: 60 }, time.now);
    const keys = { account: 'kim@example.test', address: '192.0.2.1' };
    for (let i = 0; i < 5; i++) throttle.begin(keys);
    expect(throttle.begin(keys)).toEqual({ allowed: false, retryAfterSeconds: 60, locked: ['account'] });
    time.advance(30);
    expect(throttle.begin(keys)).toEqual({ allowed: false, retryAfterSeconds: 30, locked: [] });
    time.advance(31);
    // One more try after the lockout; failing it locks again, for twice as long.
    expect(throttle.begin(keys)).toEqual({ allowed: false, retryAfterSeconds: 120, locked: ['account'] });
  });

  it('a right password clears the account and gives the address its attempt back', () => {
    const throttle = new SignInThrottle(config, clock().now);
    const keys = { account: 'rae@example.test', address: '192.0.2.1' };
    for (let i = 0; i < 4; i++) throttle.begin(keys);
    throttle.succeeded(keys);
    for (let i = 0; i < 5; i++) expect(throttle.begin(keys).allowed).toBe(true);
    expect(throttle.begin(keys).allowed).toBe(false);
  });

  it('forgets an account after a quiet window', () => {
    const time = clock();
    const throttle = new SignInThrottle({ ...config, windowSeconds: 600 }, time.now);
    const keys = { account: 'lee@example.test', address: '192.0.2.1' };
    for (let i = 0; i < 5; i++) throttle.begin(keys);
    time.advance(601);
    expect(throttle.begin(keys).allowed).toBe(true);
  });

  it('reads its limits from the environment and refuses nonsense', () => {
    expect(signInThrottleConfigFrom(settingsFrom({ ENVOLVE_SIGNIN_MAX_ATTEMPTS_PER_ACCOUNT: '3' }).signIn)).toMatchObject({
      maxAttemptsPerAccount: 3,
      maxAttemptsPerAddress: 20,
    });
    expect(() => settingsFrom({ ENVOLVE_SIGNIN_WINDOW_SECONDS: 'soon' })).toThrow(/ENVOLVE_SIGNIN_WINDOW_SECONDS: expected a whole number/);
  });
});
