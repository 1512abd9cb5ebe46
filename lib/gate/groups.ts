// Probe groups: their counts are recomputed from the rollouts they hold, so a retried or
// resumed probe never counts a rollout twice.
import type { Db, ProbeGroup } from '../db/index.ts';

// A group runs until its rollouts are in; it is complete when every one completed, failed when one
// errored or some are missing (finishGroup is the one writer; a trainer's report is created complete).
// A trainer's group is withdrawn when the token that reported it is revoked with its releases: only
// complete groups gate, so a withdrawn one never releases anything again.
export const ProbeGroupState = { running: 'running', complete: 'complete', failed: 'failed', withdrawn: 'withdrawn' } as const;
export type ProbeGroupState = (typeof ProbeGroupState)[keyof typeof ProbeGroupState];

export type GroupPurpose = 'probe' | 'trainer' | 'eval' | 'profile' | 'determinism';

// Purposes whose pass counts speak for the environment's difficulty under training.
export const GATING_PURPOSES: GroupPurpose[] = ['probe', 'trainer'];

// What a group's version is read from: a rollout policy's (lib/rollout/types.ts Policy) own fields,
// named here so that the gate, below the rollouts, need not import them.
export interface PolicyVersionFields {
  readonly version: string;
  readonly model?: string;
}

// The version a group of this policy is of: an endpoint policy's model id (the checkpoint a server
// such as vLLM serves), otherwise the policy's own version.
export function groupPolicyVersion(policy: PolicyVersionFields): string {
  return policy.model ?? policy.version;
}

export async function recountGroup(db: Db, groupId: string): Promise<ProbeGroup> {
  const rows = await db.rollout.groupBy({ by: ['status', 'passed'], where: { groupId }, _count: { _all: true } });
  let passes = 0;
  let completed = 0;
  let timeouts = 0;
  let errors = 0;
  for (const row of rows) {
    const n = row._count._all;
    if (row.passed) passes += n;
    if (row.status === 'completed' || row.status === 'timed-out' || row.status === 'reward-missing') completed += n;
    if (row.status === 'timed-out') timeouts += n;
    if (row.status === 'error') errors += n;
  }
  return db.probeGroup.update({ where: { id: groupId }, data: { passes, completed, timeouts, errors } });
}

export async function finishGroup(db: Db, groupId: string): Promise<ProbeGroup> {
  const group = await recountGroup(db, groupId);
  const state = group.errors > 0 || group.completed < group.size ? ProbeGroupState.failed : ProbeGroupState.complete;
  return db.probeGroup.update({ where: { id: groupId }, data: { state, finishedAt: new Date() } });
}

// The newest finished group of one version of a policy, large enough for the rule, that gates
// an environment version (a probe, or rewards a trainer reported). Other policies' groups, and
// older versions of this one, never speak for the lineage.
export function latestGatingGroup(db: Db, versionId: string, policy: string, policyVersion: string, minGroup: number): Promise<ProbeGroup | null> {
  return db.probeGroup.findFirst({
    where: { versionId, policy, policyVersion, size: { gte: minGroup }, purpose: { in: GATING_PURPOSES }, state: ProbeGroupState.complete },
    orderBy: { createdAt: 'desc' },
  });
}

// The newest version of a policy: the one whose first complete gating group arrived last, on any
// environment, and when that was. Checkpoints are ordered by when they first reported, not by their
// names ("step-9" and "step-10" do not sort), so a straggling group of an older checkpoint never
// makes it newest.
export async function newestPolicyVersionSeen(db: Db, policy: string): Promise<{ version: string; firstSeen: Date } | null> {
  const versions = await db.probeGroup.groupBy({
    by: ['policyVersion'],
    where: { policy, purpose: { in: GATING_PURPOSES }, state: ProbeGroupState.complete },
    _min: { createdAt: true },
  });
  let newest: { version: string; firstSeen: Date } | null = null;
  for (const v of versions) {
    const firstSeen = v._min.createdAt ?? new Date(0);
    const later = !newest || firstSeen > newest.firstSeen || (firstSeen.getTime() === newest.firstSeen.getTime() && v.policyVersion > newest.version);
    if (later) newest = { version: v.policyVersion, firstSeen };
  }
  return newest;
}

export async function newestPolicyVersion(db: Db, policy: string): Promise<string | null> {
  return (await newestPolicyVersionSeen(db, policy))?.version ?? null;
}
