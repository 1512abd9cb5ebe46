import { describe, expect, it } from 'vitest';
import { DEFAULT_WARM_POOL_SIZE, warmPoolSize } from './warm-pool.ts';

describe('warmPoolSize', () => {
  it('defaults when unset or empty, and 0 turns the pool off', () => {
    expect(warmPoolSize({})).toBe(DEFAULT_WARM_POOL_SIZE);
    expect(warmPoolSize({ ENVOLVE_WARM_POOL: ' ' })).toBe(DEFAULT_WARM_POOL_SIZE);
    expect(warmPoolSize({ ENVOLVE_WARM_POOL: '0' })).toBe(0);
    expect(warmPoolSize({ ENVOLVE_WARM_POOL: '5' })).toBe(5);
  });

  it('refuses what is not a small whole number, saying what it expected', () => {
    for (const bad of ['-1', '2.5', 'two', '1000']) {
      expect(() => warmPoolSize({ ENVOLVE_WARM_POOL: bad })).toThrow(/ENVOLVE_WARM_POOL='.*': expected a whole number/);
    }
  });
});
