// The procedural proposer keeps making the environment harder: length edits deepen the
// dependency chain, scenario and skill edits only ever raise D, and when no catalogue name can
// raise it any more the proposer says the axis is exhausted instead of swapping sideways.
import { describe, expect, it } from 'vitest';
import { difficulty, REFERENCE_TABLE, tablePriors } from '../../difficulty/index.ts';
import { chainDepth, checkEdit } from '../../sequence/index.ts';
import type { Axis, Effort, Sequence } from '../../sequence/types.ts';
import { AxisExhausted } from '../types.ts';
import { proposePlan } from './propose.ts';
import { newSeedSequence } from './seed-sequence.ts';

const D = (sequence: Sequence) => difficulty(sequence, tablePriors(REFERENCE_TABLE)).total;
const MARGIN = 0.05;

function evolve(sequence: Sequence, axis: Axis, effort: Effort, generations: number, seed: number) {
  const history = [sequence];
  for (let g = 1; g <= generations; g++) {
    const parent = history.at(-1)!;
    try {
      const plan = proposePlan({ sequence: parent, axis, effort, seed: seed * 1000 + g, round: 0, minGain: MARGIN });
      expect(checkEdit(parent, plan.child, axis, effort)).toEqual([]);
      history.push(plan.child);
    } catch (err) {
      if (err instanceof AxisExhausted) return { history, exhaustedAt: g, reason: err.message };
      throw err;
    }
  }
  return { history, exhaustedAt: null, reason: '' };
}

describe('the procedural proposer', () => {
  it('15 low-effort length generations take a depth-1 seed to a chain 16 steps deep', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const start = newSeedSequence(seed, { steps: 1 });
      expect(chainDepth(start)).toBe(1);
      const { history, exhaustedAt } = evolve(start, 'length', 'low', 15, seed);
      expect(exhaustedAt).toBeNull();
      expect(history.map(chainDepth)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
      expect(history.at(-1)!.steps).toHaveLength(16);
    }
  });

  it('high and max length edits deepen the chain by every step they insert', () => {
    for (const effort of ['high', 'max'] as const) {
      const { history } = evolve(newSeedSequence(9, { steps: 2 }), 'length', effort, 5, 9);
      for (let i = 1; i < history.length; i++) {
        const added = history[i]!.steps.length - history[i - 1]!.steps.length;
        expect(chainDepth(history[i]!)).toBe(chainDepth(history[i - 1]!) + added);
      }
    }
  });

  it('scenario and skill edits raise D every generation, then report the axis exhausted on a 2-step seed', () => {
    for (const axis of ['scenario', 'skill'] as const) {
      for (const seed of [11, 12, 13]) {
        const { history, exhaustedAt, reason } = evolve(newSeedSequence(seed, { steps: 2 }), axis, 'low', 40, seed);
        expect(exhaustedAt).not.toBeNull();
        expect(reason).toMatch(new RegExp(`no ${axis} in the catalogue makes any of the 2 editable steps harder`));
        for (let i = 1; i < history.length; i++) expect(D(history[i]!) - D(history[i - 1]!)).toBeGreaterThan(MARGIN);
      }
    }
  });
});
