import { describe, expect, it } from 'vitest';
import { formatMeanSpread, mean, median, quantile, spreadOf, standardDeviation } from './stats.ts';

describe('drift statistics', () => {
  it('interpolates quantiles between order statistics, whatever the input order', () => {
    expect(quantile([4, 1, 3, 2], 0.25)).toBeCloseTo(1.75);
    expect(median([4, 1, 3, 2])).toBeCloseTo(2.5);
    expect(quantile([4, 1, 3, 2], 0.75)).toBeCloseTo(3.25);
    expect(quantile([7], 0.9)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('computes the sample standard deviation', () => {
    expect(mean([2, 4, 4, 4, 5, 5, 7, 9])).toBe(5);
    expect(standardDeviation([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(2.138, 3);
    expect(standardDeviation([3])).toBe(0);
  });

  it('summarises a spread, or null for nothing', () => {
    expect(spreadOf([-0.25, 0, 0.5])).toMatchObject({ n: 3, median: 0, min: -0.25, max: 0.5, q1: -0.125, q3: 0.25 });
    expect(spreadOf([-0.25, 0, 0.5])?.mean).toBeCloseTo(0.0833, 3);
    expect(spreadOf([])).toBeNull();
  });

  it('shows one sample as n = 1, without a ± that would claim no spread', () => {
    const pp = { scale: 100, digits: 1, unit: 'pp' };
    expect(formatMeanSpread(spreadOf([-0.03])!, pp)).toBe('−3.0 pp (n = 1)');
    expect(formatMeanSpread(spreadOf([0.01, 0.03])!, pp)).toBe('+2.0 ± 1.4 pp (n=2)');
    expect(formatMeanSpread({ n: 3, mean: 0, sd: 0 }, { scale: 1, digits: 1, unit: 'turns' })).toBe('0.0 ± 0.0 turns (n=3)');
  });
});
