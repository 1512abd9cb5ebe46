// Moves a lineage's frontier: while the frontier generation's latest gating group of the
// lineage's probe policy, at that policy's newest version, passes its rule, the next generation (approved by review) is released,
// and the release records the group, its policy and the rule it passed. A saturated frontier with nothing
// after it asks evolution for the next generation. Generation 0 is the seed, released from the start.
import type { Db, ProbeGroup } from '../db/index.ts';
import { enqueueEvolution, changeGenerationState, StaleGenerationError } from '../evolution/index.ts';
import type { AuditActor } from '../audit/index.ts';
import { GenerationState, PENDING_STATES } from '../states/index.ts';
import type { SchedulerConfig } from './config.ts';
import { gateDecision, judgeGroup, lineageGate, type GateDecision, type GateVerdict, type LineageGate, newestPolicyVersion } from '../gate/index.ts';
import { frontierGroup } from './frontier-group.ts';
import { ConflictError, NotFoundError } from '../errors/index.ts';

export type AdvanceStep =
  | { kind: 'released'; generation: number; versionId: string }
  | { kind: 'needs-probe'; generation: number; versionId: string }
  | { kind: 'waiting'; generation: number; reason: string }
  | { kind: 'held'; generation: number; passes: number; size: number; reason: string }
  | { kind: 'evolution-requested'; generation: number; jobId: string }
  | { kind: 'no-next'; generation: number };

export interface AdvanceResult {
  lineageId: string;
  frontier: number;
  rule: LineageGate;
  policyVersion: string | null; // the newest version of the rule's policy, the only one that counts
  steps: AdvanceStep[];
}

export async function frontierVersionId(db: Db, lineage: { id: string; seedVersionId: string }, frontier: number): Promise<string | null> {
  if (frontier === 0) return lineage.seedVersionId;
  const released = await db.generation.findFirst({
    where: { lineageId: lineage.id, number: frontier, state: GenerationState.released },
    orderBy: { updatedAt: 'desc' },
    select: { versionId: true },
  });
  return released?.versionId ?? null;
}

// The released frontier version of each lineage (its seed before any release), for export.
export async function lineageFrontierVersions(db: Db, lineageIds: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const lineageId of lineageIds) {
    const lineage = await db.lineage.findUnique({ where: { id: lineageId } });
    if (!lineage) throw new NotFoundError(`lineage ${lineageId} not found`);
    const versionId = await frontierVersionId(db, lineage, lineage.frontier ?? 0);
    if (!versionId) throw new ConflictError(`lineage ${lineageId} has no released version at its frontier ${lineage.frontier}`);
    ids.push(versionId);
  }
  return ids;
}

async function recordGate(db: Db, groupId: string, gate: string, decision: GateDecision): Promise<void> {
  await db.probeGroup.update({ where: { id: groupId }, data: { gate, gateRule: JSON.stringify(decision) } });
}

// Who releases: the frontier's rule, not a person.
const SCHEDULER_ACTOR: AuditActor = { id: null, email: 'envolve:scheduler' };

// False when the generation moved since it was read (another advance released it, a reviewer's
// undo took it back): the frontier walks from what is there now.
async function release(
  db: Db,
  lineageId: string,
  generation: { id: string; number: number; revision: number },
  group: ProbeGroup,
  decision: GateDecision,
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const expected = { id: generation.id, state: GenerationState.approved, revision: generation.revision };
    const released = await changeGenerationState(tx, expected, {
      to: GenerationState.released,
      data: { releasedByGroupId: group.id, releasedByPolicy: group.policy, releaseRule: JSON.stringify(decision) },
      // A trainer's group names who reported it: the release is theirs as much as the scheduler's.
      audit: {
        actor: SCHEDULER_ACTOR,
        action: 'generation.release',
        after: { groupId: group.id, policy: group.policy, ...(group.userId ? { reportedBy: { userId: group.userId, tokenId: group.tokenId } } : {}) },
      },
    }).then(
      () => true,
      (err: unknown) => {
        if (err instanceof StaleGenerationError) return false;
        throw err;
      },
    );
    if (released) await tx.lineage.update({ where: { id: lineageId }, data: { frontier: generation.number } });
    return released;
  });
}

async function afterPass(
  db: Db,
  lineageId: string,
  frontier: number,
  group: ProbeGroup,
  decision: GateDecision,
  verdict: Extract<GateVerdict, { kind: 'pass' }>,
): Promise<AdvanceStep> {
  const next = await db.generation.findFirst({
    where: { lineageId, number: frontier + 1, state: GenerationState.approved, versionId: { not: null } },
    orderBy: { updatedAt: 'desc' },
  });
  if (next && (await release(db, lineageId, next, group, decision))) {
    await recordGate(db, group.id, 'released-next', decision);
    return { kind: 'released', generation: next.number, versionId: next.versionId as string };
  }
  const pending = await db.generation.count({ where: { lineageId, number: { gt: frontier }, state: { in: [...PENDING_STATES] } } });
  await recordGate(db, group.id, verdict.saturated ? 'saturated' : 'no-next', decision);
  if (verdict.saturated && pending === 0) {
    const job = await enqueueEvolution(db, { lineageId, generations: 1 }, { dedupeKey: `evolve-after-saturated:${lineageId}:${frontier}` });
    return { kind: 'evolution-requested', generation: frontier, jobId: job.id };
  }
  return { kind: 'no-next', generation: frontier };
}

export async function advanceLineage(db: Db, lineageId: string, config: SchedulerConfig): Promise<AdvanceResult> {
  const lineage = await db.lineage.findUnique({ where: { id: lineageId } });
  if (!lineage) throw new NotFoundError(`lineage ${lineageId} not found`);
  const rule = lineageGate(lineage, config);
  let frontier = lineage.frontier ?? 0;
  if (lineage.frontier === null) await db.lineage.update({ where: { id: lineageId }, data: { frontier: 0 } });
  const newest = await newestPolicyVersion(db, rule.policy);
  const steps: AdvanceStep[] = [];
  for (;;) {
    const versionId = await frontierVersionId(db, lineage, frontier);
    if (!versionId) {
      steps.push({ kind: 'waiting', generation: frontier, reason: 'the frontier generation has no released version' });
      break;
    }
    const found = await frontierGroup(db, rule, newest, frontier, versionId);
    if (found.kind !== 'group') {
      steps.push(
        found.kind === 'needs-probe'
          ? { kind: 'needs-probe', generation: frontier, versionId }
          : { kind: 'waiting', generation: frontier, reason: found.reason },
      );
      break;
    }
    const group = found.group;
    const verdict = judgeGroup(group, rule, newest as string);
    const decision = gateDecision(group, rule);
    if (verdict.kind === 'hold') {
      await recordGate(db, group.id, 'held', decision);
      steps.push({ kind: 'held', generation: frontier, passes: group.passes, size: group.size, reason: verdict.reason });
      break;
    }
    if (verdict.kind === 'ignored') {
      await recordGate(db, group.id, 'refused', decision);
      steps.push({ kind: 'waiting', generation: frontier, reason: verdict.reason });
      break;
    }
    if (verdict.kind === 'incomplete') {
      steps.push({ kind: 'waiting', generation: frontier, reason: verdict.reason });
      break;
    }
    const step = await afterPass(db, lineageId, frontier, group, decision, verdict);
    steps.push(step);
    if (step.kind !== 'released') break;
    frontier = step.generation;
  }
  return { lineageId, frontier, rule, policyVersion: newest, steps };
}
