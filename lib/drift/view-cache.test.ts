import { describe, expect, it } from 'vitest';
import { DriftViewCache } from './view-cache.ts';

const scope = {};

describe('DriftViewCache', () => {
  it('computes once per key and version, concurrent reads included', async () => {
    const cache = new DriftViewCache<string>(4);
    let calls = 0;
    const compute = async () => `value ${(calls += 1)}`;
    const [a, b] = await Promise.all([cache.get(scope, 'k', 1n, compute), cache.get(scope, 'k', 1n, compute)]);
    expect([a, b, await cache.get(scope, 'k', 1n, compute)]).toEqual(['value 1', 'value 1', 'value 1']);
    expect(cache.recomputes).toBe(1);
    expect(await cache.get(scope, 'k', 2n, compute)).toBe('value 2');
    expect(await cache.get(scope, 'other', 2n, compute)).toBe('value 3');
    expect(cache.recomputes).toBe(3);
  });

  it('keeps nothing of an earlier version once a read sees a newer one', async () => {
    const cache = new DriftViewCache<string>(4);
    await cache.get(scope, 'a', 1n, async () => 'a1');
    await cache.get(scope, 'b', 1n, async () => 'b1');
    await cache.get(scope, 'a', 2n, async () => 'a2');
    expect(await cache.get(scope, 'b', 1n, async () => 'b1 again')).toBe('b1 again'); // b@1 was dropped
    expect(cache.recomputes).toBe(4);
  });

  it('keeps the most recently read keys up to its capacity', async () => {
    const cache = new DriftViewCache<string>(2);
    await cache.get(scope, 'a', 1n, async () => 'a');
    await cache.get(scope, 'b', 1n, async () => 'b');
    await cache.get(scope, 'a', 1n, async () => 'a again');
    await cache.get(scope, 'c', 1n, async () => 'c'); // evicts b, the least recently read
    expect(await cache.get(scope, 'a', 1n, async () => 'a again')).toBe('a');
    expect(await cache.get(scope, 'b', 1n, async () => 'b again')).toBe('b again');
    expect(cache.recomputes).toBe(4);
  });

  it('keeps no failed computation, and memoises nothing without a version', async () => {
    const cache = new DriftViewCache<string>(2);
    await expect(cache.get(scope, 'k', 1n, () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(await cache.get(scope, 'k', 1n, async () => 'ok')).toBe('ok');
    await cache.get(scope, 'k', null, async () => 'x');
    await cache.get(scope, 'k', null, async () => 'x');
    expect(cache.recomputes).toBe(4);
  });

  it('keeps the entries of each scope (database client) apart', async () => {
    const cache = new DriftViewCache<string>(2);
    expect(await cache.get({}, 'k', 1n, async () => 'first')).toBe('first');
    expect(await cache.get({}, 'k', 1n, async () => 'second')).toBe('second');
  });
});
