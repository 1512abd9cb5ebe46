import { describe, expect, it } from 'vitest';
import { chooseAxis } from './axis-policy.ts';
import type { Axis } from './types.ts';

const generations = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('chooseAxis', () => {
  it('fixed always answers its axis', () => {
    expect(generations(5).map((g) => chooseAxis({ kind: 'fixed', axis: 'skill' }, g, 7))).toEqual(Array(5).fill('skill'));
  });

  it('round-robin goes length → scenario → skill from generation 1', () => {
    expect(generations(7).map((g) => chooseAxis({ kind: 'round-robin' }, g, 123))).toEqual([
      'length',
      'scenario',
      'skill',
      'length',
      'scenario',
      'skill',
      'length',
    ]);
  });

  it('weighted is deterministic in (seed, generation) and varies with the seed', () => {
    const policy = { kind: 'weighted' as const, weights: { length: 1, scenario: 1, skill: 1 } };
    const run = (seed: number) => generations(30).map((g) => chooseAxis(policy, g, seed));
    expect(run(42)).toEqual(run(42));
    expect(run(42)).not.toEqual(run(43));
    expect(new Set(run(42))).toEqual(new Set(['length', 'scenario', 'skill']));
  });

  it('weighted follows the weights', () => {
    const zeroSkill = { kind: 'weighted' as const, weights: { length: 1, scenario: 1, skill: 0 } };
    const picks = generations(300).map((g) => chooseAxis(zeroSkill, g, 5));
    expect(picks).not.toContain('skill');
    const heavy = { kind: 'weighted' as const, weights: { length: 8, scenario: 1, skill: 1 } };
    const counts: Record<Axis, number> = { length: 0, scenario: 0, skill: 0 };
    for (const g of generations(1000)) counts[chooseAxis(heavy, g, 9)]++;
    expect(counts.length).toBeGreaterThan(700);
    expect(counts.length).toBeLessThan(900);
  });

  it('refuses bad weights and generation numbers', () => {
    expect(() => chooseAxis({ kind: 'weighted', weights: { length: 0, scenario: 0, skill: 0 } }, 1, 1)).toThrow(/positive/);
    expect(() => chooseAxis({ kind: 'weighted', weights: { length: -1, scenario: 1, skill: 1 } }, 1, 1)).toThrow(/≥ 0/);
    expect(() => chooseAxis({ kind: 'round-robin' }, 0, 1)).toThrow(/≥ 1/);
  });
});
