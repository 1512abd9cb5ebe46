import { describe, expect, it } from 'vitest';
import { decideCandidate, DEFAULT_SEED_FILTER, type FunnelCandidate } from './funnel.ts';
import { decideSeedFunnel, type SeedFunnelEvidence, type SeedGroupCounts } from './seed-funnel-gate.ts';

const seed = { versionId: 'a'.repeat(64), name: 'log-report' };
const t = DEFAULT_SEED_FILTER;

const probed = (group: SeedGroupCounts | null, others: FunnelCandidate['probe'][] = []): SeedFunnelEvidence => ({
  source: 'probe',
  group,
  policyDecisions: [
    decideCandidate({ ...seed, probe: group }, t),
    ...others.map((probe, i) => decideCandidate({ versionId: String(i).padEnd(64, '0'), name: `other-${i}`, probe }, t)),
  ],
});
const verdict = (policy: string, evidence: SeedFunnelEvidence) => decideSeedFunnel({ seed, policy, thresholds: t, evidence });

describe("the seed funnel's verdict on one seed", () => {
  it('keeps a probed seed within both thresholds, with its numbers', () => {
    const v = verdict('anthropic', probed({ passes: 4, size: 8, meanTurns: 42, policyVersion: 'claude-x' }));
    expect(v).toMatchObject({ kind: 'kept', passes: 4, size: 8, meanTurns: 42, failed: [], turnsChecked: true, policyVersion: 'claude-x' });
    expect(v.message).toBe('the seed funnel keeps log-report under anthropic: 4/8 passes ≤ 4/8, 42.0 mean turns ≥ 30');
  });

  it('does not keep a seed that fails a threshold, and names every threshold it fails with the numbers', () => {
    const easy = verdict('openai', probed({ passes: 6, size: 8, meanTurns: 35 }));
    expect(easy).toMatchObject({ kind: 'not-kept', failed: ['pass-rate'] });
    expect(easy.message).toBe('the seed funnel has not kept log-report under openai: 6/8 passes > 4/8 (fails the pass-rate bar), 35.0 mean turns ≥ 30');
    // Other candidates reach the turn bar, so this seed's short probe is a rejection, not a policy that cannot decide.
    const both = verdict('openai', probed({ passes: 3, size: 4, meanTurns: 12 }, [{ passes: 1, size: 8, meanTurns: 44 }]));
    expect(both).toMatchObject({ kind: 'not-kept', failed: ['pass-rate', 'turns'] });
    expect(both.message).toContain('3/4 passes > 4/8 (fails the pass-rate bar), 12.0 mean turns < 30 (fails the turn bar)');
  });

  it('waits for a probe of a seed the policy never probed, and says how to probe it', () => {
    const v = verdict('anthropic', probed(null, [{ passes: 1, size: 8, meanTurns: 44 }]));
    expect(v).toMatchObject({ kind: 'waiting', passes: null, size: null });
    expect(v.message).toBe(
      `the seed funnel has no complete anthropic probe of log-report yet; probe it: envolve seeds filter --policy anthropic --versions ${'a'.repeat(12)}`,
    );
  });

  it('cannot decide with a policy that cannot reach the thresholds, instead of rejecting', () => {
    const oracle = verdict('oracle', probed({ passes: 8, size: 8, meanTurns: 4 }));
    expect(oracle.kind).toBe('undecidable');
    expect(oracle.message).toMatch(/^the seed funnel cannot decide with this policy: the oracle/);
    expect(verdict('nop', probed({ passes: 0, size: 8, meanTurns: 1 })).kind).toBe('undecidable');
    // Every simulated probe stays far under the 30-turn bar: its numbers are kept, the verdict is not a rejection.
    const simulated = verdict('simulated', probed({ passes: 6, size: 8, meanTurns: 5 }, [{ passes: 2, size: 8, meanTurns: 7 }]));
    expect(simulated).toMatchObject({ kind: 'undecidable', passes: 6, size: 8, meanTurns: 5 });
    expect(simulated.message).toBe(
      'the seed funnel cannot decide with this policy: its probes made at most 7 turns on average, under the 30-turn bar (log-report under simulated)',
    );
  });

  it("decides a trainer-gated seed by its newest checkpoint's group, on the pass rate (a trainer reports no turns)", () => {
    const kept = verdict('trainer', {
      source: 'trainer',
      newestCheckpoint: 'step-20',
      group: { passes: 3, size: 8, meanTurns: null, policyVersion: 'step-20' },
    });
    expect(kept).toMatchObject({ kind: 'kept', policyVersion: 'step-20', turnsChecked: false, failed: [] });
    expect(kept.message).toBe(
      'the seed funnel keeps log-report under trainer checkpoint step-20: 3/8 passes ≤ 4/8; mean turns not reported by the trainer (the 30-turn bar is not checked)',
    );
    const easy = verdict('trainer', {
      source: 'trainer',
      newestCheckpoint: 'step-20',
      group: { passes: 7, size: 8, meanTurns: null, policyVersion: 'step-20' },
    });
    expect(easy).toMatchObject({ kind: 'not-kept', failed: ['pass-rate'] });
    expect(easy.message).toContain('under trainer checkpoint step-20: 7/8 passes > 4/8 (fails the pass-rate bar)');
  });

  it("waits for the trainer's group on the seed until its newest checkpoint reports one", () => {
    const never = verdict('trainer', { source: 'trainer', newestCheckpoint: null, group: null });
    expect(never).toMatchObject({ kind: 'waiting', policyVersion: null });
    expect(never.message).toBe("the seed funnel waits for the trainer's group on the seed log-report: no trainer group has been reported yet");
    const newer = verdict('trainer', { source: 'trainer', newestCheckpoint: 'step-30', group: null });
    expect(newer.message).toBe(
      "the seed funnel waits for the trainer's group on the seed log-report: no trainer group of its newest checkpoint step-30 on it yet",
    );
  });
});
