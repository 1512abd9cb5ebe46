import { describe, expect, it } from 'vitest';
import { effectSpectrum } from './spectrum.ts';
import { driftInput, lineageInfo, type PositionSpec } from '../../test/fixtures/drift-input.ts';
import type { Axis } from './types.ts';

// A lineage whose generation n took axes[n-1], with the pass rates (x/8) and mean turns given.
function lineage(id: string, axes: Axis[], passes: number[], turns: number[]) {
  const positions: PositionSpec[] = passes.map((p, n) => ({ axis: n === 0 ? null : axes[n - 1], probe: [p, 8], values: { meanTurns: turns[n] ?? null } }));
  return { info: lineageInfo(id), positions };
}

describe('the axis effect spectrum', () => {
  const input = driftInput([
    // Length only: each edit costs 2/8 of the pass rate and adds 2 turns.
    lineage('len-1', ['length', 'length'], [8, 6, 4], [30, 32, 34]),
    lineage('len-2', ['length', 'length'], [6, 4, 2], [20, 22, 24]),
    // Scenario only: pass rate unchanged, +10 then +6 turns.
    lineage('scn-1', ['scenario', 'scenario'], [4, 4, 4], [30, 40, 46]),
    // Mixed: a skill edit (−1/8, +5 turns) then a length edit (−3/8, +1 turn).
    lineage('mix-1', ['skill', 'length'], [5, 4, 1], [30, 35, 36]),
  ]);
  const spectrum = effectSpectrum(input, 2);
  const axis = (a: Axis) => spectrum.axes.find((x) => x.axis === a)!;

  it('measures one edit as generation n against n − 1, per axis n took', () => {
    expect(axis('length').edits).toBe(5);
    expect(axis('length').step.passRate).toMatchObject({ n: 5, min: -0.375, max: -0.25, median: -0.25 });
    expect(axis('length').step.passRate?.mean).toBeCloseTo(-0.275);
    expect(axis('length').step.meanTurns).toMatchObject({ n: 5, mean: 1.8, min: 1, max: 2 });
    expect(axis('scenario').step.passRate).toMatchObject({ n: 2, mean: 0, sd: 0 });
    expect(axis('scenario').step.meanTurns).toMatchObject({ n: 2, mean: 8, min: 6, max: 10 });
    expect(axis('skill').step.meanTurns).toMatchObject({ n: 1, mean: 5 });
  });

  it('measures the cumulative change over the horizon in single-axis lineages only', () => {
    expect(axis('length').cumulativeLineages).toBe(2);
    expect(axis('length').cumulative.passRate).toMatchObject({ n: 2, mean: -0.5, sd: 0 });
    expect(axis('length').cumulative.meanTurns).toMatchObject({ mean: 4 });
    expect(axis('scenario').cumulative.meanTurns).toMatchObject({ n: 1, mean: 16 });
    expect(axis('skill').cumulativeLineages).toBe(0);
    expect(axis('skill').cumulative.passRate).toBeNull();
    expect(spectrum.mixed).toMatchObject({ lineages: 1, cumulative: { passRate: { mean: -0.5 }, meanTurns: { mean: 6 } } });
  });

  it('skips edits whose parent or own value is unknown, and lineages short of the horizon', () => {
    const sparse = driftInput([{ info: lineageInfo('gap'), positions: [{ probe: [4, 8] }, { axis: 'skill' }, { axis: 'skill', probe: [2, 8] }] }]);
    const result = effectSpectrum(sparse, 15);
    const skill = result.axes.find((a) => a.axis === 'skill')!;
    expect(skill.edits).toBe(2);
    expect(skill.step.passRate).toBeNull();
    expect(skill.cumulativeLineages).toBe(0);
    expect(result.horizon).toBe(15);
  });
});
