// The release gate as a pure function of a finished group and the lineage's rule. The rule is a
// rate with a minimum group size (the method's 6/8 = 0.75 over 8 rollouts), and the policy is
// part of it: only groups of the lineage's probe policy speak for its difficulty, and the
// simulated policy — whose pass probability comes from the same skill weights that define
// difficulty — may release only a lineage in demo mode.
// A group with sandbox errors says nothing about the environment's difficulty, so it never
// moves a frontier. Only the newest version of the policy counts (a trainer's newest checkpoint,
// an endpoint's current model): an older checkpoint's group speaks for a policy that is gone.
import type { Lineage } from '../db/index.ts';
import type { SchedulerConfig } from '../config/index.ts';

export interface GroupCounts {
  size: number;
  passes: number;
  completed: number; // finished rollouts, timed-out ones included
  errors: number;
  policy: string;
  policyVersion: string; // the trainer's checkpoint or step; an endpoint policy's model id
  simulated: boolean;
}

export interface GateRule {
  policy: string; // the only policy whose groups count
  releaseRate: number; // release when passes / size >= releaseRate
  minGroup: number; // ... and size >= minGroup
  demoMode: boolean; // the simulated policy may release
}

// A lineage's rule: its own where it names one, the scheduler's default elsewhere.
export interface LineageGate extends GateRule {
  timeoutReward: number;
}

type GateColumns = Pick<Lineage, 'probePolicy' | 'releaseRate' | 'minGroup' | 'timeoutReward' | 'demoMode'>;

export function lineageGate(lineage: GateColumns, config: SchedulerConfig): LineageGate {
  return {
    policy: lineage.probePolicy ?? config.probePolicy,
    releaseRate: lineage.releaseRate ?? config.releaseRate,
    minGroup: lineage.minGroup ?? config.minGroup,
    timeoutReward: lineage.timeoutReward ?? config.timeoutReward,
    demoMode: lineage.demoMode,
  };
}

export const SIMULATED_POLICY = 'simulated';

export type GateVerdict =
  | { kind: 'incomplete'; reason: string }
  | { kind: 'ignored'; reason: string } // a group that cannot speak for this lineage under its rule
  | { kind: 'pass'; saturated: boolean } // the next generation may be released
  | { kind: 'hold'; allFail: boolean; reason: string };

// What is stored with every decision, so a later change of the rule never rewrites history.
export interface GateDecision extends GateRule {
  policyVersion: string;
  passes: number;
  size: number;
  simulated: boolean;
}

export function isSimulated(group: Pick<GroupCounts, 'policy' | 'simulated'>): boolean {
  return group.simulated || group.policy === SIMULATED_POLICY;
}

// newestVersion: the newest version seen of the rule's policy (policy-versions.ts).
export function judgeGroup(group: GroupCounts, rule: GateRule, newestVersion: string): GateVerdict {
  if (group.policy !== rule.policy) return { kind: 'ignored', reason: `a ${group.policy} group; this lineage is released by ${rule.policy} groups only` };
  if (group.policyVersion !== newestVersion) return { kind: 'ignored', reason: olderVersionReason(group.policyVersion, newestVersion) };
  if (isSimulated(group) && !rule.demoMode) return { kind: 'ignored', reason: 'simulated groups release only a lineage in demo mode' };
  if (group.errors > 0) return { kind: 'incomplete', reason: `${group.errors} of ${group.size} rollouts ended in a sandbox error` };
  if (group.completed < group.size) return { kind: 'incomplete', reason: `${group.completed} of ${group.size} rollouts finished` };
  if (group.size < rule.minGroup) return { kind: 'ignored', reason: `a group of ${group.size} rollouts; the rule needs at least ${rule.minGroup}` };
  if (group.passes / group.size >= rule.releaseRate) return { kind: 'pass', saturated: group.passes === group.size };
  return { kind: 'hold', allFail: group.passes === 0, reason: `${group.passes}/${group.size} is below the release rate ${rule.releaseRate}` };
}

export function olderVersionReason(version: string, newestVersion: string): string {
  return `an older checkpoint's group (${version || 'no version'}); newest is ${newestVersion || 'no version'}`;
}

export function gateDecision(group: GroupCounts, rule: GateRule): GateDecision {
  return { ...rule, policyVersion: group.policyVersion, passes: group.passes, size: group.size, simulated: isSimulated(group) };
}

// A rollout's verdict. Timed-out rollouts carry the server's timeout reward (0 unless a lineage says otherwise).
export function passes(reward: number | null, passThreshold: number): boolean {
  return reward !== null && reward >= passThreshold;
}
