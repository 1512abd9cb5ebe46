// The drift charts say what they pool: lineages of different axis policies are named in the
// pooled label (and in the pooled D–outcome rows), and positions whose D is unknown (an undescribed
// imported task) come out of the loader with null D, marked, left out of the D series and the
// correlations, and counted in a note.
import { describe, expect, it } from 'vitest';
import { assembleDrift, type DriftRows } from './assemble.ts';
import { difficultyOutcome } from './difficulty-outcome.ts';
import { axisPooling, unknownDifficulty } from './pooling.ts';
import { metricChart } from './series.ts';

const day = (d: number) => new Date(Date.UTC(2026, 2, d));
const OPAQUE = 'o'.repeat(64);
const SEED = 's'.repeat(64);
const V1 = '1'.repeat(64);
const V2 = '2'.repeat(64);

function rows(): DriftRows {
  const lineage = (id: string, seedVersionId: string, axisPolicy: string) => ({
    id,
    name: `lineage ${id}`,
    seedVersionId,
    axisPolicy,
    synthesiser: 'procedural',
    createdAt: day(1),
    frontier: null,
    lastReleasedAt: null,
  });
  return {
    lineages: [lineage('L', OPAQUE, '{"kind":"fixed","axis":"length"}'), lineage('S', SEED, '{"kind":"fixed","axis":"skill"}')],
    versions: [
      // The imported task and its lengthened child: D unknown, as storeDifficulty writes it.
      { id: OPAQUE, name: 'imported', difficultyLength: null, difficultyScenario: null, difficultySkill: null, difficultyModel: 'undescribed:s1' },
      { id: V1, name: 'imported-g1', difficultyLength: null, difficultyScenario: null, difficultySkill: null, difficultyModel: 'undescribed:s1' },
      { id: SEED, name: 'seed', difficultyLength: 7, difficultyScenario: 6.78, difficultySkill: 4.28, difficultyModel: 'ref-2027.1' },
      { id: V2, name: 'seed-g1', difficultyLength: 8, difficultyScenario: 6.78, difficultySkill: 6, difficultyModel: 'ref-2027.1' },
    ],
    generations: [
      { id: 'l1', lineageId: 'L', number: 1, axis: 'length', state: 'awaiting-review', versionId: V1, createdAt: day(2) },
      { id: 's1', lineageId: 'S', number: 1, axis: 'skill', state: 'awaiting-review', versionId: V2, createdAt: day(2) },
    ],
    probes: [
      { id: 'p1', versionId: OPAQUE, generationId: null, lineageId: 'L', policyVersion: 'v', passes: 4, size: 8, createdAt: day(2) },
      { id: 'p2', versionId: V1, generationId: 'l1', lineageId: 'L', policyVersion: 'v', passes: 2, size: 8, createdAt: day(3) },
    ],
    rolloutSums: [],
    attemptCounts: [],
    planRoundCounts: [],
  };
}

describe('drift pooling and unknown D', () => {
  it('marks positions with unknown D, leaves them out of the D chart and the correlations, and says how many', () => {
    const input = assembleDrift(rows());
    const opaque = input.points.filter((p) => p.lineageId === 'L');
    expect(opaque.map((p) => [p.number, p.difficultyUnknown, p.values.difficultyTotal])).toEqual([
      [0, true, null],
      [1, true, null],
    ]);
    const chart = metricChart(input, 'difficultyTotal', 'generation');
    expect(chart.lines.find((l) => l.lineageId === 'L')?.points ?? []).toEqual([]);
    expect(chart.lines.find((l) => l.lineageId === 'S')!.points.map((p) => Number(p.y.toFixed(2)))).toEqual([18.06, 20.78]);
    // Lineage L has probes but no D: no pair enters its correlation.
    const rowL = difficultyOutcome(input).find((r) => r.lineageId === 'L')!;
    expect(rowL.passRate.n).toBe(0);
    expect(rowL.points).toEqual([]);
    expect(unknownDifficulty(input)).toEqual({
      positions: 2,
      note: '2 positions have D unknown — undescribed (an imported task nobody described or extracted): left out of the D series and the D–outcome correlations, never counted as 0',
    });
  });

  it('labels charts pooled over different axis policies, and a single policy as such', () => {
    const input = assembleDrift(rows());
    expect(axisPooling(input)).toEqual({
      policies: ['length', 'skill'],
      pooled: true,
      label: 'pooled over axes: length, skill (2 lineages; filter by axis policy to chart one)',
    });
    expect(difficultyOutcome(input)[0]!.name).toBe('all unknown policy lineages (2; pooled over axes: length, skill)');
    const one = { ...input, lineages: input.lineages.filter((l) => l.id === 'S') };
    expect(axisPooling(one)).toEqual({ policies: ['skill'], pooled: false, label: 'axis policy: skill' });
  });
});
