// The seed funnel: candidate environments (imported versions) → seeds kept by the filter.
// A candidate is kept when its probe is partially solved at most `maxPasses` of `probeSize`
// (scaled for groups of another size) and its trajectories are long: mean turns ≥ `minTurns`.
// The paper's numbers: 47,678 candidates → 127 seeds at ≤ 4/8 and ≥ 30 turns.
import { z } from 'zod';

export const seedFilterThresholdsSchema = z.object({
  maxPasses: z.coerce.number().int('maxPasses is a whole number').min(0).max(64).default(4),
  probeSize: z.coerce.number().int('probeSize is a whole number').min(1).max(64).default(8),
  minTurns: z.coerce.number().min(0).max(10_000).default(30),
});
export type SeedFilterThresholds = z.infer<typeof seedFilterThresholdsSchema>;
export const DEFAULT_SEED_FILTER: SeedFilterThresholds = seedFilterThresholdsSchema.parse({});

export type RemovalReason = 'unprobed' | 'pass-rate' | 'turns';

export interface FunnelCandidate {
  versionId: string;
  name: string;
  probe: { passes: number; size: number; meanTurns: number | null; policyVersion?: string } | null;
}

export interface FunnelDecision {
  versionId: string;
  name: string;
  passes: number | null;
  size: number | null;
  meanTurns: number | null;
  kept: boolean;
  removedBy: RemovalReason[]; // every threshold it fails, not only the first
}

export interface Funnel {
  thresholds: SeedFilterThresholds;
  // Set when the probing policy cannot reach the thresholds: its "removed" are not rejections.
  undecidable: string | null;
  // Each stage keeps what the previous one kept and passes one more test.
  stages: { key: 'candidates' | 'probed' | 'pass-rate' | 'turns'; label: string; count: number }[];
  decisions: FunnelDecision[];
}

export function passRateLimit(t: SeedFilterThresholds): string {
  return `${t.maxPasses}/${t.probeSize}`;
}

export function decideCandidate(candidate: FunnelCandidate, t: SeedFilterThresholds): FunnelDecision {
  const { probe } = candidate;
  const removedBy: RemovalReason[] = [];
  if (!probe || probe.size === 0) removedBy.push('unprobed');
  else {
    // passes/size ≤ maxPasses/probeSize, in integers so 4/8 ≤ 4/8 holds exactly.
    if (probe.passes * t.probeSize > t.maxPasses * probe.size) removedBy.push('pass-rate');
    if (probe.meanTurns === null || probe.meanTurns < t.minTurns) removedBy.push('turns');
  }
  return {
    versionId: candidate.versionId,
    name: candidate.name,
    passes: probe?.passes ?? null,
    size: probe?.size ?? null,
    meanTurns: probe?.meanTurns ?? null,
    kept: removedBy.length === 0,
    removedBy,
  };
}

export function seedFunnel(candidates: FunnelCandidate[], thresholds: SeedFilterThresholds, policy: string): Funnel {
  return funnelOf(
    candidates.map((c) => decideCandidate(c, thresholds)),
    thresholds,
    policy,
  );
}

// A policy that cannot reach the thresholds decides nothing: the oracle passes every solvable task
// (no candidate clears the pass-rate bar), nop fails every one, and a policy whose probes never
// came near the turn bar (the simulated one makes a handful of turns) cannot say a seed is long.
export function undecidableReason(policy: string, decisions: FunnelDecision[], thresholds: SeedFilterThresholds): string | null {
  if (policy === 'oracle') return 'cannot decide with this policy: the oracle runs the reference solution, which passes every solvable task';
  if (policy === 'nop') return 'cannot decide with this policy: nop does nothing and fails every task';
  const turns = decisions.flatMap((d) => (d.meanTurns === null ? [] : [d.meanTurns]));
  const most = turns.length ? Math.max(...turns) : null;
  if (most !== null && most < thresholds.minTurns) {
    return `cannot decide with this policy: its probes made at most ${Math.round(most * 10) / 10} turns on average, under the ${thresholds.minTurns}-turn bar`;
  }
  return null;
}

/** The funnel of decisions already made (a stored run's) under their thresholds, by `policy`'s probes. */
export function funnelOf(decisions: FunnelDecision[], thresholds: SeedFilterThresholds, policy: string): Funnel {
  const sorted = [...decisions].sort((a, b) => a.name.localeCompare(b.name) || a.versionId.localeCompare(b.versionId));
  const probed = sorted.filter((d) => !d.removedBy.includes('unprobed'));
  const afterPassRate = probed.filter((d) => !d.removedBy.includes('pass-rate'));
  return {
    thresholds,
    undecidable: undecidableReason(policy, sorted, thresholds),
    stages: [
      { key: 'candidates', label: 'Candidate environments', count: sorted.length },
      { key: 'probed', label: 'Probed', count: probed.length },
      { key: 'pass-rate', label: `Pass rate ≤ ${passRateLimit(thresholds)}`, count: afterPassRate.length },
      { key: 'turns', label: `Mean turns ≥ ${thresholds.minTurns}`, count: afterPassRate.filter((d) => !d.removedBy.includes('turns')).length },
    ],
    decisions: sorted,
  };
}

/** The candidates each threshold removed (a candidate failing both is listed under both). */
export function removedBy(funnel: Funnel, reason: RemovalReason): FunnelDecision[] {
  return funnel.decisions.filter((d) => d.removedBy.includes(reason));
}
