import { describe, expect, it } from 'vitest';
import { withoutSessionTokens } from './auth-responses.ts';

describe('auth response bodies', () => {
  it('never carry the session token', () => {
    expect(withoutSessionTokens({ redirect: false, token: 'secret', user: { id: 'u' } })).toEqual({ redirect: false, user: { id: 'u' } });
    expect(withoutSessionTokens({ session: { id: 's', token: 'secret', expiresAt: 'x' }, user: { id: 'u' } })).toEqual({
      session: { id: 's', expiresAt: 'x' },
      user: { id: 'u' },
    });
    expect(withoutSessionTokens(null)).toBeNull();
    expect(withoutSessionTokens({ status: true })).toEqual({ status: true });
  });

  it('list-sessions answers a list: no session in it carries its token', () => {
    expect(
      withoutSessionTokens([
        { id: 'a', token: 'secret-a' },
        { id: 'b', token: 'secret-b', userAgent: 'x' },
      ]),
    ).toEqual([{ id: 'a' }, { id: 'b', userAgent: 'x' }]);
  });
});
