// The group that speaks for a frontier version under a lineage's rule: the newest complete group
// of the rule's policy at that policy's newest version. When there is none, what the frontier waits
// for instead: a probe (a policy Envolve runs) or the trainer's group, saying so when an older
// checkpoint's group is all there is. The frontier walk (frontier.ts) and the lineage page's
// explanation of every approved generation (waits.ts) read it the same way.
import type { Db, ProbeGroup } from '../db/index.ts';
import { olderVersionReason, type LineageGate, isRunnablePolicy, GATING_PURPOSES, latestGatingGroup, ProbeGroupState } from '../gate/index.ts';

export type FrontierGroup =
  | { kind: 'group'; group: ProbeGroup }
  | { kind: 'needs-probe' } // a policy Envolve runs: a probe is what it waits for
  | { kind: 'waiting'; reason: string };

export async function frontierGroup(db: Db, rule: LineageGate, newest: string | null, frontier: number, versionId: string): Promise<FrontierGroup> {
  const group = newest === null ? null : await latestGatingGroup(db, versionId, rule.policy, newest, rule.minGroup);
  if (group) return { kind: 'group', group };
  if (isRunnablePolicy(rule.policy)) return { kind: 'needs-probe' };
  const older = await db.probeGroup.findFirst({
    where: { versionId, policy: rule.policy, size: { gte: rule.minGroup }, purpose: { in: GATING_PURPOSES }, state: ProbeGroupState.complete },
    orderBy: { createdAt: 'desc' },
    select: { policyVersion: true },
  });
  if (older && newest !== null && older.policyVersion !== newest) return { kind: 'waiting', reason: olderVersionReason(older.policyVersion, newest) };
  return { kind: 'waiting', reason: `waiting for a complete ${rule.policy} group on G${frontier}` };
}
