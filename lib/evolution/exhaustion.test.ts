import { describe, expect, it } from 'vitest';
import { axesToTry, exhaustedAt, exhaustionMessage } from './exhaustion.ts';

describe('axis exhaustion', () => {
  it('a fixed policy has only its axis, and nothing once that axis is exhausted', () => {
    expect(axesToTry({ kind: 'fixed', axis: 'scenario' }, 4, 1, new Set())).toEqual(['scenario']);
    expect(axesToTry({ kind: 'fixed', axis: 'scenario' }, 4, 1, new Set(['scenario']))).toEqual([]);
  });

  it('round-robin tries its axis first, then the others, skipping exhausted ones', () => {
    expect(axesToTry({ kind: 'round-robin' }, 2, 1, new Set())).toEqual(['scenario', 'length', 'skill']);
    expect(axesToTry({ kind: 'round-robin' }, 2, 1, new Set(['scenario']))).toEqual(['length', 'skill']);
    expect(axesToTry({ kind: 'round-robin' }, 2, 1, new Set(['scenario', 'length', 'skill']))).toEqual([]);
  });

  it('weighted never falls back to an axis of weight zero', () => {
    const policy = { kind: 'weighted' as const, weights: { length: 0, scenario: 1, skill: 1 } };
    for (let g = 1; g <= 20; g++) {
      const axes = axesToTry(policy, g, 7, new Set(['scenario']));
      expect(axes).toEqual(['skill']);
    }
  });

  it('exhaustion holds only at the parent it was found at', () => {
    const row = {
      exhaustedAxes: JSON.stringify({
        scenario: { generation: 5, parentVersionId: 'v4', reason: 'r' },
        skill: { generation: 3, parentVersionId: 'v2', reason: 'r' },
      }),
    };
    expect([...exhaustedAt(row, 'v4')]).toEqual(['scenario']);
    expect([...exhaustedAt(row, 'v9')]).toEqual([]);
    expect(exhaustionMessage(['scenario'], 5, ['no scenario raises D'])).toBe('axis exhausted at generation 5: scenario (no scenario raises D)');
  });
});
