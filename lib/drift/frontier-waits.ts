// Lineages whose frontier waits for a group that counts: no complete group of the gating policy's
// newest version on the frontier version (a trainer that has not reported on it, a probe not yet
// run). The wait started at the latest of: the frontier reaching its generation, the newest
// checkpoint first reporting (its groups are the only ones that count), and the last gate change.
// A frontier whose group holds it (below the rate) is not waiting: that is the stalled alert's.
// Read for every lineage in a fixed number of queries.
import type { Db } from '../db/index.ts';
import { GenerationState } from '../states/index.ts';
import { GATING_PURPOSES, newestPolicyVersionSeen, ProbeGroupState, lineageGate, olderVersionReason } from '../gate/index.ts';
import type { SchedulerConfig } from '../scheduler/index.ts';

export interface FrontierWait {
  reason: string;
  since: Date;
}

const latest = (...dates: (Date | null | undefined)[]) => new Date(Math.max(...dates.map((d) => d?.getTime() ?? 0)));

export async function loadFrontierWaits(db: Db, config: SchedulerConfig): Promise<Map<string, FrontierWait>> {
  const [lineages, frontiers, gateChanges] = await Promise.all([
    db.lineage.findMany({ where: { heldOutSet: null } }),
    db.generation.findMany({ where: { state: GenerationState.released }, select: { lineageId: true, number: true, versionId: true, updatedAt: true } }),
    db.auditEvent.groupBy({ by: ['subjectId'], where: { action: 'lineage.gate', subjectType: 'lineage' }, _max: { createdAt: true } }),
  ]);
  const released = new Map(frontiers.map((g) => [`${g.lineageId}\u0000${g.number}`, g]));
  const changedAt = new Map(gateChanges.map((c) => [c.subjectId, c._max.createdAt]));
  const rules = new Map(lineages.map((l) => [l.id, lineageGate(l, config)]));
  const policies = [...new Set([...rules.values()].map((r) => r.policy))];
  const newest = new Map(await Promise.all(policies.map(async (p) => [p, await newestPolicyVersionSeen(db, p)] as const)));
  const at = lineages.map((l) => {
    const frontier = l.frontier ?? 0;
    const generation = frontier === 0 ? null : released.get(`${l.id}\u0000${frontier}`);
    return {
      lineage: l,
      frontier,
      versionId: frontier === 0 ? l.seedVersionId : (generation?.versionId ?? null),
      reachedAt: generation?.updatedAt ?? l.createdAt,
    };
  });
  const groups = await db.probeGroup.findMany({
    where: { versionId: { in: at.flatMap((a) => (a.versionId ? [a.versionId] : [])) }, purpose: { in: GATING_PURPOSES }, state: ProbeGroupState.complete },
    select: { versionId: true, policy: true, policyVersion: true, size: true },
  });
  const waits = new Map<string, FrontierWait>();
  for (const { lineage, frontier, versionId, reachedAt } of at) {
    const rule = rules.get(lineage.id)!;
    if (!versionId) continue;
    const seen = newest.get(rule.policy) ?? null;
    const ofPolicy = groups.filter((g) => g.versionId === versionId && g.policy === rule.policy && g.size >= rule.minGroup);
    if (seen && ofPolicy.some((g) => g.policyVersion === seen.version)) continue;
    const older = ofPolicy.find((g) => seen && g.policyVersion !== seen.version);
    waits.set(lineage.id, {
      reason: older && seen ? olderVersionReason(older.policyVersion, seen.version) : `waiting for a complete ${rule.policy} group on G${frontier}`,
      since: latest(reachedAt, seen?.firstSeen, changedAt.get(lineage.id)),
    });
  }
  return waits;
}
