// Reads everything the drift page needs in a fixed number of queries, whatever the number of
// lineages: whole tables narrowed by column, and grouped counts the database sums for us.
// Pass rates are of one policy per lineage, never a mix: the policy asked for, else each
// lineage's gating policy; its probes and the groups a trainer reported both count, and each
// point says which version (checkpoint) its group is of.
import type { Db } from '../db/index.ts';
import { assembleDrift, type DriftRows } from './assemble.ts';
import type { DriftInput } from './types.ts';
import { GenerationState } from '../states/index.ts';
import { GATING_PURPOSES, ProbeGroupState } from '../gate/index.ts';

const COMPLETE_PROBE = { purpose: { in: GATING_PURPOSES }, state: ProbeGroupState.complete } as const;

export interface PassRatePolicy {
  policy?: string; // one policy for every lineage
  defaultPolicy: string; // the scheduler's probe policy, for lineages that name none
}

export async function loadDriftRows(db: Db, passRates: PassRatePolicy): Promise<DriftRows & { passRatePolicies: Map<string, string> }> {
  const [lineages, generations, allProbes, turnSums, tokenSums, attemptCounts, planRoundCounts, releases] = await Promise.all([
    db.lineage.findMany({
      select: { id: true, name: true, seedVersionId: true, axisPolicy: true, synthesiser: true, createdAt: true, frontier: true, probePolicy: true },
    }),
    db.generation.findMany({ select: { id: true, lineageId: true, number: true, axis: true, state: true, versionId: true, createdAt: true } }),
    db.probeGroup.findMany({
      where: COMPLETE_PROBE,
      select: { id: true, versionId: true, generationId: true, lineageId: true, policy: true, policyVersion: true, passes: true, size: true, createdAt: true },
    }),
    // Sums for every group: cheaper than joining on the group's purpose (assembling reads only the
    // probes' sums). Rollouts outside any group (most of a trainer's) are skipped by the index.
    db.rollout.groupBy({ by: ['groupId'], where: { groupId: { not: null } }, _count: { _all: true }, _sum: { turns: true } }),
    // Tokens per turn only where the policy reported both counts.
    db.rollout.groupBy({
      by: ['groupId'],
      where: { groupId: { not: null }, promptTokens: { not: null }, completionTokens: { not: null } },
      _sum: { turns: true, promptTokens: true, completionTokens: true },
    }),
    db.attempt.groupBy({ by: ['generationId', 'state'], _count: { _all: true } }),
    db.planRound.groupBy({ by: ['generationId'], _count: { _all: true } }),
    db.generation.groupBy({ by: ['lineageId'], where: { state: GenerationState.released }, _max: { updatedAt: true } }),
  ]);
  const passRatePolicies = new Map(lineages.map((l) => [l.id, passRates.policy ?? l.probePolicy ?? passRates.defaultPolicy]));
  const lineageOfGeneration = new Map(generations.map((g) => [g.id, g.lineageId]));
  // A trainer's group names no lineage: it stands for every position on its version whose
  // lineage's pass rates are of its policy.
  const positionsOfVersion = new Map<string, { lineageId: string; generationId: string | null }[]>();
  const addPosition = (versionId: string, position: { lineageId: string; generationId: string | null }) =>
    positionsOfVersion.set(versionId, [...(positionsOfVersion.get(versionId) ?? []), position]);
  for (const l of lineages) addPosition(l.seedVersionId, { lineageId: l.id, generationId: null });
  for (const g of generations) if (g.versionId) addPosition(g.versionId, { lineageId: g.lineageId, generationId: g.id });
  const probes = allProbes.flatMap(({ policy, ...p }) => {
    const lineageId = p.lineageId ?? (p.generationId ? lineageOfGeneration.get(p.generationId) : undefined);
    if (lineageId) return policy === ((passRatePolicies.get(lineageId) ?? passRates.policy) || passRates.defaultPolicy) ? [p] : [];
    return (positionsOfVersion.get(p.versionId) ?? []).filter((at) => passRatePolicies.get(at.lineageId) === policy).map((at) => ({ ...p, ...at }));
  });
  const versionIds = new Set<string>();
  for (const l of lineages) versionIds.add(l.seedVersionId);
  for (const g of generations) if (g.versionId) versionIds.add(g.versionId);
  const versions = await db.environmentVersion.findMany({
    where: { id: { in: [...versionIds] } },
    select: { id: true, name: true, difficultyLength: true, difficultyScenario: true, difficultySkill: true, difficultyModel: true },
  });

  const lastRelease = new Map(releases.map((r) => [r.lineageId, r._max.updatedAt]));
  const tokensByGroup = new Map(tokenSums.map((t) => [t.groupId, t]));
  return {
    passRatePolicies,
    lineages: lineages.map(({ probePolicy: _probePolicy, ...l }) => ({ ...l, lastReleasedAt: lastRelease.get(l.id) ?? null })),
    versions,
    generations,
    probes,
    rolloutSums: turnSums.flatMap((s) => {
      if (!s.groupId) return [];
      const tokens = tokensByGroup.get(s.groupId);
      return [
        {
          groupId: s.groupId,
          rollouts: s._count._all,
          turns: s._sum.turns ?? 0,
          tokenTurns: tokens?._sum.turns ?? 0,
          tokens: (tokens?._sum.promptTokens ?? 0) + (tokens?._sum.completionTokens ?? 0),
        },
      ];
    }),
    attemptCounts: attemptCounts.map((c) => ({ generationId: c.generationId, state: c.state, count: c._count._all })),
    planRoundCounts: planRoundCounts.map((c) => ({ generationId: c.generationId, count: c._count._all })),
  };
}

export async function loadDrift(db: Db, passRates: PassRatePolicy): Promise<DriftInput> {
  const { passRatePolicies, ...rows } = await loadDriftRows(db, passRates);
  const input = assembleDrift(rows);
  return { ...input, lineages: input.lineages.map((l) => ({ ...l, passRatePolicy: passRatePolicies.get(l.id) })) };
}

/** The drift input with each lineage's frontier wait (frontier-waits.ts) attached, for the alerts. */
export function withFrontierWaits(input: DriftInput, waits: Map<string, { reason: string; since: Date }>): DriftInput {
  return { ...input, lineages: input.lineages.map((l) => (waits.has(l.id) ? { ...l, frontierWait: waits.get(l.id) } : l)) };
}
