// The seed funnel's verdict on one seed under the policy that gates its lineage: kept (evolution
// may start from it), not kept (with the numbers and the thresholds it fails), waiting (no group
// to decide on yet) or undecidable (the policy cannot reach the thresholds, funnel.ts). A
// trainer-gated seed is decided by its newest checkpoint's group on the seed, a probed one by the
// policy's latest probe of it. A trainer reports rewards, not turns: its groups are decided on the
// pass rate alone, and the verdict says the turn bar was not checked.
import { decideCandidate, passRateLimit, undecidableReason, type FunnelDecision, type SeedFilterThresholds } from './funnel.ts';

export interface SeedGroupCounts {
  passes: number;
  size: number;
  meanTurns: number | null; // null: no rollouts stored (a trainer's group)
  policyVersion?: string; // the checkpoint (or model) the group is of
}

export type SeedFunnelEvidence =
  // newestCheckpoint: the policy's newest version (null: the trainer never reported); group: that
  // checkpoint's newest complete group on the seed.
  | { source: 'trainer'; newestCheckpoint: string | null; group: SeedGroupCounts | null }
  // group: the policy's latest complete probe of the seed; policyDecisions: the funnel's decision
  // on every candidate under the policy, the seed among them (how long its probes run at most).
  | { source: 'probe'; group: SeedGroupCounts | null; policyDecisions: FunnelDecision[] };

export interface SeedFunnelInput {
  seed: { versionId: string; name: string };
  policy: string;
  thresholds: SeedFilterThresholds;
  evidence: SeedFunnelEvidence;
}

export type SeedFunnelVerdictKind = 'kept' | 'not-kept' | 'waiting' | 'undecidable';
export type FailedThreshold = 'pass-rate' | 'turns';

export interface SeedFunnelVerdict {
  kind: SeedFunnelVerdictKind;
  seedVersionId: string;
  seedName: string;
  policy: string;
  policyVersion: string | null; // the checkpoint (or model) of the group decided on
  thresholds: SeedFilterThresholds;
  passes: number | null;
  size: number | null;
  meanTurns: number | null;
  turnsChecked: boolean;
  failed: FailedThreshold[];
  message: string;
}

export function decideSeedFunnel(input: SeedFunnelInput): SeedFunnelVerdict {
  const { seed, policy, thresholds, evidence } = input;
  const base = {
    seedVersionId: seed.versionId,
    seedName: seed.name,
    policy,
    policyVersion: evidence.group?.policyVersion ?? null,
    thresholds,
    passes: evidence.group?.passes ?? null,
    size: evidence.group?.size ?? null,
    meanTurns: evidence.group?.meanTurns ?? null,
    turnsChecked: evidence.source === 'probe',
    failed: [],
  };
  const undecidable = undecidableReason(policy, evidence.source === 'probe' ? evidence.policyDecisions : [], thresholds);
  if (undecidable) return { ...base, kind: 'undecidable', message: `the seed funnel ${undecidable} (${seed.name} under ${policy})` };
  const group = evidence.group;
  if (!group) return { ...base, kind: 'waiting', message: waitingReason(seed, policy, evidence) };
  const decision = decideCandidate({ ...seed, probe: { passes: group.passes, size: group.size, meanTurns: group.meanTurns } }, thresholds);
  const failed = decision.removedBy.filter((r): r is FailedThreshold => r === 'pass-rate' || (r === 'turns' && base.turnsChecked));
  const kind = failed.length === 0 ? 'kept' : 'not-kept';
  const numbers = describeNumbers({ ...base, failed });
  const by = `${policy}${evidence.source === 'trainer' ? ` checkpoint ${group.policyVersion || '(no version)'}` : ''}`;
  const message =
    kind === 'kept' ? `the seed funnel keeps ${seed.name} under ${by}: ${numbers}` : `the seed funnel has not kept ${seed.name} under ${by}: ${numbers}`;
  return { ...base, kind, failed, message };
}

function waitingReason(seed: SeedFunnelInput['seed'], policy: string, evidence: SeedFunnelEvidence): string {
  if (evidence.source === 'probe') {
    return `the seed funnel has no complete ${policy} probe of ${seed.name} yet; probe it: envolve seeds filter --policy ${policy} --versions ${seed.versionId.slice(0, 12)}`;
  }
  if (evidence.newestCheckpoint === null)
    return `the seed funnel waits for the trainer's group on the seed ${seed.name}: no ${policy} group has been reported yet`;
  return `the seed funnel waits for the trainer's group on the seed ${seed.name}: no ${policy} group of its newest checkpoint ${evidence.newestCheckpoint || '(no version)'} on it yet`;
}

// "6/8 passes > 4/8 (fails the pass-rate bar), 12.0 mean turns < 30 (fails the turn bar)".
function describeNumbers(v: Pick<SeedFunnelVerdict, 'passes' | 'size' | 'meanTurns' | 'thresholds' | 'turnsChecked' | 'failed'>): string {
  const passRateFailed = v.failed.includes('pass-rate');
  const passRate = `${v.passes}/${v.size} passes ${passRateFailed ? '>' : '≤'} ${passRateLimit(v.thresholds)}${passRateFailed ? ' (fails the pass-rate bar)' : ''}`;
  if (!v.turnsChecked) return `${passRate}; mean turns not reported by the trainer (the ${v.thresholds.minTurns}-turn bar is not checked)`;
  const turnsFailed = v.failed.includes('turns');
  const turns =
    v.meanTurns === null
      ? `no turns recorded (fails the ${v.thresholds.minTurns}-turn bar)`
      : `${v.meanTurns.toFixed(1)} mean turns ${turnsFailed ? '<' : '≥'} ${v.thresholds.minTurns}${turnsFailed ? ' (fails the turn bar)' : ''}`;
  return `${passRate}, ${turns}`;
}
