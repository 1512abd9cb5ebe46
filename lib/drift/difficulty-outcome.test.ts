import { describe, expect, it } from 'vitest';
import { difficultyOutcome, pearson } from './difficulty-outcome.ts';
import type { DriftInput, GenerationPoint, MetricValues } from './types.ts';

const empty: MetricValues = {
  difficultyLength: null,
  difficultyScenario: null,
  difficultySkill: null,
  difficultyTotal: null,
  passRate: null,
  meanTurns: null,
  tokensPerTurn: null,
  rejectionRate: null,
  planRounds: null,
  modifyRounds: null,
};

function point(lineageId: string, number: number, d: number, passRate: number | null, meanTurns: number | null): GenerationPoint {
  return {
    lineageId,
    number,
    generationId: `${lineageId}-${number}`,
    axis: 'length',
    state: 'released',
    at: new Date(0),
    probe: null,
    values: { ...empty, difficultyTotal: d, passRate, meanTurns },
  };
}

const lineage = (id: string, passRatePolicy = 'trainer') => ({
  id,
  passRatePolicy,
  name: id,
  seedVersionId: 's',
  seedName: 's',
  axisPolicy: 'round-robin',
  synthesiser: 'procedural',
  createdAt: new Date(0),
  frontier: 0,
  lastReleasedAt: null,
});

describe('difficulty against outcome', () => {
  it('computes Pearson r exactly and refuses it without variance or with too few points', () => {
    expect(
      pearson([
        [1, 2],
        [2, 4],
        [3, 6],
      ]).r,
    ).toBeCloseTo(1, 12);
    expect(
      pearson([
        [1, 3],
        [2, 2],
        [3, 1],
      ]).r,
    ).toBeCloseTo(-1, 12);
    // x = 1, 2, 3, 4; y = 1, 3, 2, 4: r = 0.8 worked by hand (sxy 4, sxx 5, syy 5).
    expect(
      pearson([
        [1, 1],
        [2, 3],
        [3, 2],
        [4, 4],
      ]).r,
    ).toBeCloseTo(0.8, 12);
    expect(
      pearson([
        [1, 1],
        [2, 1],
        [3, 1],
      ]),
    ).toEqual({ r: null, n: 3 });
    expect(
      pearson([
        [1, 1],
        [2, 2],
      ]),
    ).toEqual({ r: null, n: 2 });
  });

  it('correlates D with pass rate and turns per lineage and pooled, skipping positions not probed', () => {
    const input: DriftInput = {
      lineages: [lineage('A'), lineage('B')],
      points: [
        point('A', 0, 10, 1, 5),
        point('A', 1, 12, 0.75, 7),
        point('A', 2, 14, 0.5, 9),
        point('A', 3, 16, null, null),
        point('B', 0, 11, 1, 6),
        point('B', 1, 13, 1, 6),
        point('B', 2, 15, 1, 6),
      ],
    };
    const [pooled, a, b] = difficultyOutcome(input);
    expect(pooled).toMatchObject({
      lineageId: null,
      name: 'all trainer lineages (2; axis policy round-robin)',
      policy: 'trainer',
      simulated: false,
      passRate: { n: 6 },
      meanTurns: { n: 6 },
    });
    expect(pooled!.passRate.r!).toBeLessThan(0);
    expect(a).toMatchObject({ lineageId: 'A', passRate: { n: 3 }, meanTurns: { n: 3 } });
    expect(a!.passRate.r!).toBeCloseTo(-1, 12);
    expect(a!.meanTurns.r!).toBeCloseTo(1, 12);
    expect(a!.points).toHaveLength(4);
    // A lineage whose policy always passes has nothing to correlate.
    expect(b!.passRate).toEqual({ r: null, n: 3 });
  });

  it('pools the lineages of one policy only, and marks the simulated policy', () => {
    const input: DriftInput = {
      lineages: [lineage('A', 'trainer'), lineage('S', 'simulated'), lineage('T', 'simulated')],
      points: [point('A', 0, 10, 1, 5), point('A', 1, 12, 0.5, 7), point('S', 0, 10, 1, 5), point('T', 0, 10, 0.5, 5)],
    };
    const rows = difficultyOutcome(input);
    expect(rows.map((r) => [r.name, r.policy, r.simulated, r.passRate.n])).toEqual([
      ['all simulated lineages (2; axis policy round-robin)', 'simulated', true, 2],
      ['all trainer lineages (1; axis policy round-robin)', 'trainer', false, 2],
      ['A', 'trainer', false, 2],
      ['S', 'simulated', true, 1],
      ['T', 'simulated', true, 1],
    ]);
  });
});
