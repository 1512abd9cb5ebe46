import { describe, expect, it } from 'vitest';
import { checkpointSeries, checkpointSeriesLabel, UNKNOWN_POLICY } from './checkpoint-series.ts';
import { driftInput, lineageInfo } from '../../test/fixtures/drift-input.ts';
import { SIMULATED_POLICY } from '../gate/gate.ts';

describe('pass rate per (policy, checkpoint) over generations', () => {
  const input = driftInput([
    {
      info: lineageInfo('a', { passRatePolicy: 'trainer' }),
      positions: [{ probe: [6, 8, 'step-100'] }, { probe: [4, 8, 'step-100'] }, { probe: [2, 8, 'step-200'] }],
    },
    { info: lineageInfo('b', { passRatePolicy: 'trainer' }), positions: [{ probe: [8, 8, 'step-100'] }, {}, { probe: [3, 8, 'step-200'] }] },
    { info: lineageInfo('c', { passRatePolicy: SIMULATED_POLICY }), positions: [{ probe: [5, 10] }] },
    { info: lineageInfo('d'), positions: [{ probe: [1, 4, 'v1'] }] },
  ]);

  it('pools each checkpoint per generation, counting lineages and rollouts', () => {
    const series = checkpointSeries(input);
    expect(series.map((s) => [s.policy, s.policyVersion])).toEqual([
      [UNKNOWN_POLICY, 'v1'],
      [SIMULATED_POLICY, ''],
      ['trainer', 'step-100'],
      ['trainer', 'step-200'],
    ]);
    const step100 = series.find((s) => s.policyVersion === 'step-100')!;
    expect(step100.points).toEqual([
      { generation: 0, passes: 14, rollouts: 16, passRate: 14 / 16, lineages: 2 },
      { generation: 1, passes: 4, rollouts: 8, passRate: 0.5, lineages: 1 },
    ]);
    expect(step100).toMatchObject({ lineages: 2, rollouts: 24, simulated: false });
    const step200 = series.find((s) => s.policyVersion === 'step-200')!;
    expect(step200.points).toEqual([{ generation: 2, passes: 5, rollouts: 16, passRate: 5 / 16, lineages: 2 }]);
    expect(series.find((s) => s.policy === SIMULATED_POLICY)?.simulated).toBe(true);
  });

  it('labels a series with its policy, version and sample size, and marks the simulated one', () => {
    const [unknown, simulated, step100] = checkpointSeries(input).sort((a, b) => a.lineages - b.lineages || a.policy.localeCompare(b.policy));
    expect(step100 && checkpointSeriesLabel(step100)).toBe('trainer @ step-100 (2 lineages, n=24 rollouts)');
    expect(simulated && checkpointSeriesLabel(simulated)).toBe(
      `${SIMULATED_POLICY} @ (no version) (1 lineage, n=10 rollouts) — simulated: tests the pipeline, not the method`,
    );
    expect(unknown && checkpointSeriesLabel(unknown)).toBe(`${UNKNOWN_POLICY} @ v1 (1 lineage, n=4 rollouts)`);
  });

  it('has no series without probes', () => {
    expect(checkpointSeries(driftInput([{ info: lineageInfo('a', { passRatePolicy: 'trainer' }), positions: [{}, {}] }]))).toEqual([]);
  });
});
