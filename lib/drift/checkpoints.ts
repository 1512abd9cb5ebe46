// Pass rate by checkpoint: every version of a gating policy (a trainer's checkpoint or step, an
// endpoint's model id) with the groups it reported, pooled. The sampling design differs between
// checkpoints: each was served the frontiers of its own time, so a later checkpoint meets harder
// environments and its pooled rate is not a like-for-like comparison; the page says so.
import type { Db } from '../db/index.ts';
import { GATING_PURPOSES, ProbeGroupState } from '../gate/index.ts';

/** Complete gating groups of one checkpoint on one environment version, summed. */
export interface CheckpointGroupRow {
  policy: string;
  policyVersion: string;
  versionId: string;
  groups: number;
  passes: number;
  rollouts: number;
  firstAt: Date;
}

export interface CheckpointPassRate {
  policy: string;
  policyVersion: string;
  firstReportedAt: string; // checkpoints are ordered by it: the newest is the one whose groups gate
  newest: boolean;
  groups: number;
  environments: number; // distinct environment versions its groups were on
  passes: number;
  rollouts: number;
  passRate: number | null;
}

export function checkpointPassRates(rows: CheckpointGroupRow[]): CheckpointPassRate[] {
  const byCheckpoint = new Map<
    string,
    { policy: string; policyVersion: string; firstAt: Date; groups: number; versions: Set<string>; passes: number; rollouts: number }
  >();
  for (const r of rows) {
    const key = `${r.policy}\u0000${r.policyVersion}`;
    const c = byCheckpoint.get(key) ?? {
      policy: r.policy,
      policyVersion: r.policyVersion,
      firstAt: r.firstAt,
      groups: 0,
      versions: new Set(),
      passes: 0,
      rollouts: 0,
    };
    if (r.firstAt < c.firstAt) c.firstAt = r.firstAt;
    c.groups += r.groups;
    c.versions.add(r.versionId);
    c.passes += r.passes;
    c.rollouts += r.rollouts;
    byCheckpoint.set(key, c);
  }
  const ordered = [...byCheckpoint.values()].sort(
    (a, b) => a.policy.localeCompare(b.policy) || a.firstAt.getTime() - b.firstAt.getTime() || a.policyVersion.localeCompare(b.policyVersion),
  );
  const newest = new Map(ordered.map((c) => [c.policy, c.policyVersion])); // the last of each policy wins
  return ordered.map((c) => ({
    policy: c.policy,
    policyVersion: c.policyVersion,
    firstReportedAt: c.firstAt.toISOString(),
    newest: newest.get(c.policy) === c.policyVersion,
    groups: c.groups,
    environments: c.versions.size,
    passes: c.passes,
    rollouts: c.rollouts,
    passRate: c.rollouts > 0 ? c.passes / c.rollouts : null,
  }));
}

/** Every checkpoint of these policies, from their complete gating groups, in one grouped query. */
export async function loadCheckpointPassRates(db: Db, policies: string[]): Promise<CheckpointPassRate[]> {
  if (policies.length === 0) return [];
  const rows = await db.probeGroup.groupBy({
    by: ['policy', 'policyVersion', 'versionId'],
    where: { policy: { in: policies }, purpose: { in: GATING_PURPOSES }, state: ProbeGroupState.complete },
    _count: { _all: true },
    _sum: { passes: true, size: true },
    _min: { createdAt: true },
  });
  return checkpointPassRates(
    rows.map((r) => ({
      policy: r.policy,
      policyVersion: r.policyVersion,
      versionId: r.versionId,
      groups: r._count._all,
      passes: r._sum.passes ?? 0,
      rollouts: r._sum.size ?? 0,
      firstAt: r._min.createdAt ?? new Date(0),
    })),
  );
}
