import { describe, expect, it } from 'vitest';
import {
  concurrencyCeiling,
  concurrencyLevels,
  improved,
  latencySummary,
  minSamplesFor,
  percentile,
  rolloutsPerMinute,
  type CurvePoint,
} from './profile-math.ts';

const point = (concurrency: number, rolloutsPerMin: number, errors = 0): CurvePoint => ({
  concurrency,
  rollouts: 2 * concurrency,
  wallMs: 1000,
  rolloutsPerMin,
  errors,
  p50Ms: 1000,
});

describe('percentiles only from samples that can tell them from the maximum', () => {
  it('needs 2 rollouts for a p50, 20 for a p95 and 100 for a p99', () => {
    expect([50, 95, 99].map(minSamplesFor)).toEqual([2, 20, 100]);
    const ten = Array.from({ length: 10 }, (_, i) => i + 1);
    expect(latencySummary(ten)).toEqual({
      p50Ms: 5,
      p95Ms: null,
      p99Ms: null,
      needMoreSamples: ['p95 needs 20 rollouts (have 10)', 'p99 needs 100 rollouts (have 10)'],
    });
    const twenty = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(latencySummary(twenty)).toMatchObject({ p95Ms: 19, p99Ms: null }); // 19, not the maximum 20
    expect(latencySummary([7])).toMatchObject({
      p50Ms: null,
      needMoreSamples: ['p50 needs 2 rollouts (have 1)', 'p95 needs 20 rollouts (have 1)', 'p99 needs 100 rollouts (have 1)'],
    });
  });
});

describe('percentiles', () => {
  it('nearest rank: observed values, the maximum for p99 of few samples', () => {
    const ten = [10, 1, 9, 2, 8, 3, 7, 4, 6, 5];
    expect(percentile(ten, 50)).toBe(5);
    expect(percentile(ten, 95)).toBe(10);
    expect(percentile(ten, 99)).toBe(10);
    expect(percentile(ten, 10)).toBe(1);
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(latencySummary(hundred)).toEqual({ p50Ms: 50, p95Ms: 95, p99Ms: 99, needMoreSamples: [] });
    expect(percentile([42], 99)).toBe(42);
  });

  it('refuses empty samples and impossible percentiles', () => {
    expect(() => percentile([], 50)).toThrow(/no samples/);
    expect(() => percentile([1], 0)).toThrow(/\(0, 100\]/);
    expect(() => percentile([1], 101)).toThrow();
  });
});

describe('concurrency ceiling', () => {
  it('is the last level whose throughput rose by more than 10%', () => {
    expect(concurrencyCeiling([point(1, 20), point(2, 36), point(4, 50), point(8, 52)])).toBe(4);
    expect(concurrencyCeiling([point(1, 20), point(2, 21.9)])).toBe(1); // +9.5%: not an improvement
    expect(concurrencyCeiling([point(1, 20), point(2, 22.1), point(4, 40)])).toBe(4);
  });

  it('stops where errors start, even if throughput rose', () => {
    expect(concurrencyCeiling([point(1, 20), point(2, 38), point(4, 70, 1)])).toBe(2);
    expect(concurrencyCeiling([point(1, 20, 1)])).toBe(0);
  });

  it('the climb continues only while the last level improved', () => {
    const curve = [point(1, 20), point(2, 30), point(4, 31)];
    expect([0, 1, 2].map((i) => improved(curve, i))).toEqual([true, true, false]);
  });

  it('throughput and levels', () => {
    expect(rolloutsPerMinute(4, 30_000)).toBe(8);
    expect(() => rolloutsPerMinute(1, 0)).toThrow();
    expect(concurrencyLevels(8)).toEqual([1, 2, 4, 8]);
    expect(concurrencyLevels(6)).toEqual([1, 2, 4, 6]);
    expect(concurrencyLevels(1)).toEqual([1]);
    expect(() => concurrencyLevels(0)).toThrow(/positive integer/);
  });
});
