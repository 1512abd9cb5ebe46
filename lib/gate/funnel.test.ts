import { describe, expect, it } from 'vitest';
import { decideCandidate, DEFAULT_SEED_FILTER, removedBy, seedFilterThresholdsSchema, seedFunnel, type FunnelCandidate } from './funnel.ts';

const candidate = (name: string, probe: FunnelCandidate['probe']): FunnelCandidate => ({ versionId: name.padEnd(64, '0'), name, probe });

describe('the seed funnel', () => {
  it('defaults to the paper: at most 4/8 passes and at least 30 mean turns', () => {
    expect(DEFAULT_SEED_FILTER).toEqual({ maxPasses: 4, probeSize: 8, minTurns: 30 });
  });

  it('keeps candidates on the boundaries and scales the pass limit to other group sizes', () => {
    const t = DEFAULT_SEED_FILTER;
    expect(decideCandidate(candidate('edge', { passes: 4, size: 8, meanTurns: 30 }), t)).toMatchObject({ kept: true, removedBy: [] });
    expect(decideCandidate(candidate('half-of-4', { passes: 2, size: 4, meanTurns: 31 }), t).kept).toBe(true);
    expect(decideCandidate(candidate('3-of-4', { passes: 3, size: 4, meanTurns: 31 }), t).removedBy).toEqual(['pass-rate']);
    expect(decideCandidate(candidate('short', { passes: 1, size: 8, meanTurns: 29.9 }), t).removedBy).toEqual(['turns']);
    expect(decideCandidate(candidate('no-turns', { passes: 1, size: 8, meanTurns: null }), t).removedBy).toEqual(['turns']);
    expect(decideCandidate(candidate('both', { passes: 8, size: 8, meanTurns: 3 }), t).removedBy).toEqual(['pass-rate', 'turns']);
    expect(decideCandidate(candidate('never', null), t)).toMatchObject({ kept: false, removedBy: ['unprobed'], passes: null });
  });

  it('counts each stage and lists what each threshold removed', () => {
    const funnel = seedFunnel(
      [
        candidate('a-kept', { passes: 2, size: 8, meanTurns: 45 }),
        candidate('b-easy', { passes: 7, size: 8, meanTurns: 40 }),
        candidate('c-short', { passes: 3, size: 8, meanTurns: 12 }),
        candidate('d-both', { passes: 8, size: 8, meanTurns: 5 }),
        candidate('e-unprobed', null),
      ],
      DEFAULT_SEED_FILTER,
      'anthropic',
    );
    expect(funnel.undecidable).toBeNull();
    expect(funnel.stages.map((s) => [s.label, s.count])).toEqual([
      ['Candidate environments', 5],
      ['Probed', 4],
      ['Pass rate ≤ 4/8', 2],
      ['Mean turns ≥ 30', 1],
    ]);
    expect(removedBy(funnel, 'pass-rate').map((d) => d.name)).toEqual(['b-easy', 'd-both']);
    expect(removedBy(funnel, 'turns').map((d) => d.name)).toEqual(['c-short', 'd-both']);
    expect(removedBy(funnel, 'unprobed').map((d) => d.name)).toEqual(['e-unprobed']);
    expect(funnel.decisions.filter((d) => d.kept).map((d) => d.name)).toEqual(['a-kept']);
  });

  it('says "cannot decide with this policy" for the oracle, nop, and a policy whose probes never come near the turn bar', () => {
    const short = [candidate('a', { passes: 2, size: 8, meanTurns: 6 }), candidate('b', { passes: 5, size: 8, meanTurns: 7.25 })];
    expect(seedFunnel(short, DEFAULT_SEED_FILTER, 'oracle').undecidable).toMatch(/^cannot decide with this policy: the oracle/);
    expect(seedFunnel(short, DEFAULT_SEED_FILTER, 'nop').undecidable).toMatch(/^cannot decide with this policy: nop/);
    expect(seedFunnel(short, DEFAULT_SEED_FILTER, 'simulated').undecidable).toBe(
      'cannot decide with this policy: its probes made at most 7.3 turns on average, under the 30-turn bar',
    );
    expect(seedFunnel(short, { ...DEFAULT_SEED_FILTER, minTurns: 5 }, 'simulated').undecidable).toBeNull();
  });

  it('takes thresholds from strings (flags, URL parameters) and refuses nonsense', () => {
    expect(seedFilterThresholdsSchema.parse({ maxPasses: '2', minTurns: '12.5' })).toEqual({ maxPasses: 2, probeSize: 8, minTurns: 12.5 });
    expect(seedFilterThresholdsSchema.safeParse({ maxPasses: '2.5' }).success).toBe(false);
    expect(seedFilterThresholdsSchema.safeParse({ minTurns: '-1' }).success).toBe(false);
  });
});
