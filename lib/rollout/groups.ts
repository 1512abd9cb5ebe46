// Probe groups: their counts are recomputed from the rollouts they hold, so a retried or
// resumed probe never counts a rollout twice.
import type { Db } from '../db/client.ts';
import type { ProbeGroup } from '../db/generated/client.ts';

export type GroupPurpose = 'probe' | 'trainer' | 'eval' | 'profile' | 'determinism';

// Purposes whose pass counts speak for the environment's difficulty under training.
export const GATING_PURPOSES: GroupPurpose[] = ['probe', 'trainer'];

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
  const state = group.errors > 0 || group.completed < group.size ? 'failed' : 'complete';
  return db.probeGroup.update({ where: { id: groupId }, data: { state, finishedAt: new Date() } });
}

// The newest finished group of a policy, large enough for the rule, that gates a version (a
// probe, or rewards a trainer reported). Other policies' groups never speak for the lineage.
export function latestGatingGroup(db: Db, versionId: string, policy: string, minGroup: number): Promise<ProbeGroup | null> {
  return db.probeGroup.findFirst({
    where: { versionId, policy, size: { gte: minGroup }, purpose: { in: GATING_PURPOSES }, state: 'complete' },
    orderBy: { createdAt: 'desc' },
  });
}
