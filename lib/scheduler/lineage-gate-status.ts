// A lineage's release gate as it stands, for a reader who did not set it: the rule (whose groups
// count, how many rollouts, how many passes release), the newest checkpoint of the gating policy
// (the only one whose groups count) and what each release waits for. Read-only, and made of the
// pieces the scheduler itself judges by (lineageGate, probeSettings, newestPolicyVersionSeen,
// lineageWaits), so what it says is what the frontier walk does.
import type { Db } from '../db/index.ts';
import { NotFoundError } from '../errors/index.ts';
import { isRunnablePolicy, lineageGate, newestPolicyVersionSeen, type LineageGate } from '../gate/index.ts';
import type { SchedulerConfig } from './config.ts';
import { probeSettings } from './jobs.ts';
import { lineageWaits, type LineageWaits } from './waits.ts';

export interface GateGroups {
  // probe: Envolve runs the policy's probes itself; trainer: a trainer reports the policy's groups.
  source: 'probe' | 'trainer';
  size: number; // rollouts in a probe Envolve runs; the fewest a trainer's group may have to count
  releaseAt: number; // the fewest passes out of `size` that release (passes / size ≥ release rate)
}

export interface LineageGateStatus {
  lineageId: string;
  rule: LineageGate;
  groups: GateGroups;
  description: string; // the rule in words, every number labelled
  // The gating policy's newest version (a trainer's checkpoint, an endpoint's model) and when its
  // first complete group arrived; null: no complete group of the policy yet.
  newestCheckpoint: { version: string; firstReported: string } | null;
  frontier: number; // the highest released generation (0: the seed)
  waits: LineageWaits;
}

// The same comparison judgeGroup makes (passes / size ≥ releaseRate), so no rounding can disagree with it.
export function releaseAt(size: number, releaseRate: number): number {
  for (let passes = 0; passes < size; passes += 1) if (passes / size >= releaseRate) return passes;
  return size;
}

export function describeGateRule(rule: LineageGate, groups: GateGroups): string {
  const who =
    groups.source === 'probe'
      ? `${rule.policy} probes of ${groups.size} rollouts (run by Envolve)`
      : `${rule.policy} groups your trainer reports, of at least ${groups.size} rollouts`;
  const release = `release at ≥ ${groups.releaseAt}/${groups.size} passes (release rate ${rule.releaseRate}${groups.source === 'trainer' ? ', the same rate for a larger group' : ''})`;
  const demo = rule.demoMode ? '; demo mode: simulated groups may release it' : '';
  return `${who}; ${release}; a timed-out rollout scores reward ${rule.timeoutReward}${demo}`;
}

export async function lineageGateStatus(db: Db, lineageId: string, config: SchedulerConfig): Promise<LineageGateStatus> {
  const lineage = await db.lineage.findUnique({ where: { id: lineageId } });
  if (!lineage) throw new NotFoundError(`lineage ${lineageId} not found`);
  const rule = lineageGate(lineage, config);
  const [probe, newest, waits] = await Promise.all([
    probeSettings(db, lineageId, config),
    newestPolicyVersionSeen(db, rule.policy),
    lineageWaits(db, lineageId, config),
  ]);
  const source = isRunnablePolicy(rule.policy) ? 'probe' : 'trainer';
  const size = source === 'probe' ? probe.size : rule.minGroup;
  const groups: GateGroups = { source, size, releaseAt: releaseAt(size, rule.releaseRate) };
  return {
    lineageId,
    rule,
    groups,
    description: describeGateRule(rule, groups),
    newestCheckpoint: newest && { version: newest.version, firstReported: newest.firstSeen.toISOString() },
    frontier: lineage.frontier ?? 0,
    waits,
  };
}
