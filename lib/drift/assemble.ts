// Raw rows (as the loader reads them, a handful of grouped queries) → one point per lineage
// position. Pure, so the rules below are unit-tested on hand-built rows.
import { storedAsUnknown } from '../difficulty/index.ts';
import { axisPolicySchema, describeAxisPolicy } from '../evolution/index.ts';
import { GenerationState } from '../states/index.ts';
import { AXES, type Axis, type DriftInput, type GenerationPoint, type LineageInfo, type MetricValues } from './types.ts';

export interface LineageRow {
  id: string;
  name: string;
  seedVersionId: string;
  axisPolicy: string; // stored JSON
  synthesiser: string;
  createdAt: Date;
  frontier: number | null;
  lastReleasedAt: Date | null; // the latest update of a generation in state "released"
}

export interface VersionRow {
  id: string;
  name: string;
  difficultyLength: number | null;
  difficultyScenario: number | null;
  difficultySkill: number | null;
  difficultyModel?: string | null; // says when D is unknown (an undescribed step)
}

export interface GenerationRow {
  id: string;
  lineageId: string;
  number: number;
  axis: string;
  state: string;
  versionId: string | null;
  createdAt: Date;
}

/** A complete gating group: a probe, or a group a trainer reported. */
export interface ProbeRow {
  id: string;
  versionId: string;
  generationId: string | null;
  lineageId: string | null;
  policyVersion: string; // the checkpoint (or model id) that made it
  passes: number;
  size: number;
  createdAt: Date;
}

/** Sums over one probe group's rollouts; `tokenTurns`/`tokens` only over rollouts that reported tokens. */
export interface RolloutSums {
  groupId: string;
  rollouts: number;
  turns: number;
  tokenTurns: number;
  tokens: number;
}

export interface CountRow {
  generationId: string;
  count: number;
}

export interface AttemptCountRow extends CountRow {
  state: string; // modifying | validating | valid | invalid | error
}

export interface DriftRows {
  lineages: LineageRow[];
  versions: VersionRow[];
  generations: GenerationRow[];
  probes: ProbeRow[];
  rolloutSums: RolloutSums[];
  attemptCounts: AttemptCountRow[];
  planRoundCounts: CountRow[];
}

// Which of several generations with one number stands for the position.
const STATE_RANK: Partial<Record<string, number>> = {
  [GenerationState.released]: 6,
  [GenerationState.approved]: 5,
  [GenerationState.awaitingReview]: 4,
  [GenerationState.validating]: 3,
  [GenerationState.modifying]: 2,
  [GenerationState.planning]: 1,
};

function settledOf(rows: GenerationRow[]): GenerationRow {
  const rank = (row: GenerationRow) => (row.versionId ? 10 : 0) + (STATE_RANK[row.state] ?? 0);
  return rows.reduce((best, row) => (rank(row) > rank(best) || (rank(row) === rank(best) && row.createdAt.getTime() > best.createdAt.getTime()) ? row : best));
}

export function axisPolicyLabel(stored: string): string {
  try {
    const policy = axisPolicySchema.safeParse(JSON.parse(stored));
    return policy.success ? describeAxisPolicy(policy.data) : stored;
  } catch {
    return stored;
  }
}

function isAxis(value: string): value is Axis {
  return (AXES as string[]).includes(value);
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

export function assembleDrift(rows: DriftRows): DriftInput {
  const versions = new Map(rows.versions.map((v) => [v.id, v]));
  const newestFirst = [...rows.probes].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const probeByGeneration = new Map<string, ProbeRow>();
  const probeByVersion = new Map<string, ProbeRow>();
  // A seed shared by several lineages: each lineage's own probe of it comes first.
  const seedProbeByLineage = new Map<string, ProbeRow>();
  for (const probe of newestFirst) {
    if (probe.generationId && !probeByGeneration.has(probe.generationId)) probeByGeneration.set(probe.generationId, probe);
    if (!probeByVersion.has(probe.versionId)) probeByVersion.set(probe.versionId, probe);
    if (!probe.generationId && probe.lineageId) {
      const key = `${probe.lineageId}\u0000${probe.versionId}`;
      if (!seedProbeByLineage.has(key)) seedProbeByLineage.set(key, probe);
    }
  }
  const sums = new Map(rows.rolloutSums.map((s) => [s.groupId, s]));
  const planRounds = new Map(rows.planRoundCounts.map((c) => [c.generationId, c.count]));
  const attempts = new Map<string, Map<string, number>>();
  for (const row of rows.attemptCounts) {
    const byState = attempts.get(row.generationId) ?? new Map<string, number>();
    byState.set(row.state, (byState.get(row.state) ?? 0) + row.count);
    attempts.set(row.generationId, byState);
  }

  const probeValues = (probe: ProbeRow | undefined) => {
    const s = probe ? sums.get(probe.id) : undefined;
    return {
      passRate: probe ? ratio(probe.passes, probe.size) : null,
      meanTurns: s ? ratio(s.turns, s.rollouts) : null,
      tokensPerTurn: s ? ratio(s.tokens, s.tokenTurns) : null,
    };
  };
  const difficultyValues = (versionId: string | null) => {
    const v = versionId ? versions.get(versionId) : undefined;
    const l = v?.difficultyLength ?? null;
    const sc = v?.difficultyScenario ?? null;
    const sk = v?.difficultySkill ?? null;
    return {
      difficultyLength: l,
      difficultyScenario: sc,
      difficultySkill: sk,
      difficultyTotal: l !== null && sc !== null && sk !== null ? l + sc + sk : null,
    };
  };

  const unknownD = (versionId: string | null) => {
    const v = versionId ? versions.get(versionId) : undefined;
    return v ? storedAsUnknown({ difficultyModel: v.difficultyModel ?? null }) : false;
  };

  const byPosition = new Map<string, GenerationRow[]>();
  for (const g of rows.generations) {
    const key = `${g.lineageId}\u0000${g.number}`;
    const siblings = byPosition.get(key) ?? [];
    siblings.push(g);
    byPosition.set(key, siblings);
  }

  const points: GenerationPoint[] = [];
  for (const lineage of rows.lineages) {
    const seedProbe = seedProbeByLineage.get(`${lineage.id}\u0000${lineage.seedVersionId}`) ?? probeByVersion.get(lineage.seedVersionId);
    points.push({
      lineageId: lineage.id,
      number: 0,
      generationId: null,
      axis: null,
      state: 'seed',
      at: lineage.createdAt,
      probe: seedProbe ? { passes: seedProbe.passes, size: seedProbe.size, policyVersion: seedProbe.policyVersion } : null,
      values: { ...difficultyValues(lineage.seedVersionId), ...probeValues(seedProbe), rejectionRate: null, planRounds: null, modifyRounds: null },
      ...(unknownD(lineage.seedVersionId) ? { difficultyUnknown: true } : {}),
    });
  }
  const lineageIds = new Set(rows.lineages.map((l) => l.id));
  for (const siblings of byPosition.values()) {
    const settled = settledOf(siblings);
    if (!lineageIds.has(settled.lineageId)) continue;
    const probe = probeByGeneration.get(settled.id) ?? (settled.versionId ? probeByVersion.get(settled.versionId) : undefined);
    let valid = 0;
    let invalid = 0;
    let modifyRounds = 0;
    let plans = 0;
    for (const g of siblings) {
      for (const [state, count] of attempts.get(g.id) ?? []) {
        modifyRounds += count;
        if (state === 'valid') valid += count;
        if (state === 'invalid') invalid += count;
      }
      plans += planRounds.get(g.id) ?? 0;
    }
    const values: MetricValues = {
      ...difficultyValues(settled.versionId),
      ...probeValues(probe),
      // Validators' verdicts only: an attempt that errored (sandbox, synthesiser) is no rejection.
      rejectionRate: ratio(invalid, valid + invalid),
      planRounds: plans,
      modifyRounds,
    };
    points.push({
      lineageId: settled.lineageId,
      number: settled.number,
      generationId: settled.id,
      axis: isAxis(settled.axis) ? settled.axis : null,
      state: settled.state,
      at: settled.createdAt,
      probe: probe ? { passes: probe.passes, size: probe.size, policyVersion: probe.policyVersion } : null,
      values,
      ...(unknownD(settled.versionId) ? { difficultyUnknown: true } : {}),
    });
  }

  const lineages: LineageInfo[] = rows.lineages.map((l) => ({
    id: l.id,
    name: l.name,
    seedVersionId: l.seedVersionId,
    seedName: versions.get(l.seedVersionId)?.name ?? l.seedVersionId.slice(0, 12),
    axisPolicy: axisPolicyLabel(l.axisPolicy),
    synthesiser: l.synthesiser,
    createdAt: l.createdAt,
    frontier: l.frontier,
    lastReleasedAt: l.lastReleasedAt,
  }));
  return { lineages, points };
}
