import { describe, expect, it } from 'vitest';
import { assembleDrift, type DriftRows } from './assemble.ts';

const SEED = 's'.repeat(64);
const V1 = '1'.repeat(64);
const V2 = '2'.repeat(64);
const day = (d: number) => new Date(Date.UTC(2026, 2, d));

function rows(): DriftRows {
  return {
    lineages: [
      {
        id: 'L',
        name: 'lineage L',
        seedVersionId: SEED,
        axisPolicy: '{"kind":"fixed","axis":"skill"}',
        synthesiser: 'procedural',
        createdAt: day(1),
        frontier: 1,
        lastReleasedAt: day(3),
      },
    ],
    versions: [
      { id: SEED, name: 'seed-task', difficultyLength: 3, difficultyScenario: 5, difficultySkill: 7 },
      { id: V1, name: 'g1', difficultyLength: 4, difficultyScenario: 5.5, difficultySkill: 7.5 },
      { id: V2, name: 'g2', difficultyLength: 5, difficultyScenario: null, difficultySkill: 8 },
    ],
    generations: [
      // Generation 1 settled on its second try: the failed sibling's attempts still count.
      { id: 'g1-failed', lineageId: 'L', number: 1, axis: 'skill', state: 'failed', versionId: null, createdAt: day(2) },
      { id: 'g1', lineageId: 'L', number: 1, axis: 'skill', state: 'released', versionId: V1, createdAt: day(3) },
      { id: 'g2', lineageId: 'L', number: 2, axis: 'skill', state: 'awaiting-review', versionId: V2, createdAt: day(4) },
    ],
    probes: [
      { id: 'p-seed', versionId: SEED, generationId: null, lineageId: 'L', policyVersion: 'step-1', passes: 3, size: 8, createdAt: day(1) },
      // Another lineage's newer probe of the shared seed does not replace this lineage's own.
      { id: 'p-seed-other', versionId: SEED, generationId: null, lineageId: 'M', policyVersion: 'step-1', passes: 7, size: 8, createdAt: day(2) },
      { id: 'p-g1-old', versionId: V1, generationId: 'g1', lineageId: 'L', policyVersion: 'step-1', passes: 8, size: 8, createdAt: day(3) },
      { id: 'p-g1', versionId: V1, generationId: 'g1', lineageId: 'L', policyVersion: 'step-2', passes: 6, size: 8, createdAt: day(4) },
      // Generation 2's probe ran on its version without naming the generation.
      { id: 'p-g2', versionId: V2, generationId: null, lineageId: null, policyVersion: 'step-1', passes: 2, size: 8, createdAt: day(5) },
    ],
    rolloutSums: [
      { groupId: 'p-seed', rollouts: 8, turns: 240, tokenTurns: 0, tokens: 0 },
      { groupId: 'p-g1', rollouts: 8, turns: 320, tokenTurns: 100, tokens: 95_000 },
      { groupId: 'p-g2', rollouts: 4, turns: 200, tokenTurns: 200, tokens: 240_000 },
    ],
    attemptCounts: [
      { generationId: 'g1-failed', state: 'invalid', count: 2 },
      { generationId: 'g1-failed', state: 'error', count: 1 },
      { generationId: 'g1', state: 'invalid', count: 1 },
      { generationId: 'g1', state: 'valid', count: 1 },
      { generationId: 'g2', state: 'valid', count: 1 },
    ],
    planRoundCounts: [
      { generationId: 'g1-failed', count: 1 },
      { generationId: 'g1', count: 2 },
      { generationId: 'g2', count: 1 },
    ],
  };
}

describe('assembleDrift', () => {
  const drift = assembleDrift(rows());
  const at = (n: number) => drift.points.find((p) => p.number === n)!;

  it('labels the lineage and its seed', () => {
    expect(drift.lineages).toEqual([expect.objectContaining({ id: 'L', seedName: 'seed-task', axisPolicy: 'skill', lastReleasedAt: day(3) })]);
    expect(drift.points).toHaveLength(3);
  });

  it('makes the seed generation 0, with its own probe and difficulty and no rounds', () => {
    expect(at(0)).toMatchObject({ generationId: null, axis: null, state: 'seed', probe: { passes: 3, size: 8 } });
    expect(at(0).values).toMatchObject({ difficultyTotal: 15, passRate: 0.375, meanTurns: 30, tokensPerTurn: null, rejectionRate: null, planRounds: null });
  });

  it('merges failed siblings: the settled one gives version and probe, all of them give rounds and rejections', () => {
    expect(at(1)).toMatchObject({ generationId: 'g1', axis: 'skill', state: 'released', probe: { passes: 6, size: 8, policyVersion: 'step-2' } });
    expect(at(1).values).toMatchObject({
      difficultyLength: 4,
      difficultyTotal: 17,
      passRate: 0.75, // the newest complete probe, not the 8/8 before it
      meanTurns: 40,
      tokensPerTurn: 950, // only over the turns of rollouts that reported tokens
      rejectionRate: 0.75, // 3 invalid of 4 judged; the errored attempt is no verdict
      planRounds: 3,
      modifyRounds: 5,
    });
  });

  it("falls back to the version's probe, and leaves the total empty while a component is unknown", () => {
    expect(at(2).values).toMatchObject({
      passRate: 0.25,
      meanTurns: 50,
      tokensPerTurn: 1200,
      difficultyScenario: null,
      difficultyTotal: null,
      rejectionRate: 0,
    });
  });
});
