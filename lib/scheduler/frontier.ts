// Moves a lineage's frontier: while the frontier generation's latest gating group reaches the
// bar, the next generation (approved by review) is released. A saturated frontier with nothing
// after it asks evolution for the next generation. Generation 0 is the seed, released from the start.
import type { Db } from '../db/client.ts';
import { enqueueEvolution } from '../evolution/jobs.ts';
import { judgeGroup, type GateVerdict } from './gate.ts';
import { latestGatingGroup } from './groups.ts';

// Generations still on their way to a decision: evolution must not be asked for another.
const PENDING_STATES = ['planning', 'modifying', 'validating', 'awaiting-review', 'changes-requested', 'approved'];

export type AdvanceStep =
  | { kind: 'released'; generation: number; versionId: string }
  | { kind: 'needs-probe'; generation: number; versionId: string }
  | { kind: 'waiting'; generation: number; reason: string }
  | { kind: 'held'; generation: number; passes: number; size: number }
  | { kind: 'evolution-requested'; generation: number; jobId: string }
  | { kind: 'no-next'; generation: number };

export interface AdvanceResult {
  lineageId: string;
  frontier: number;
  steps: AdvanceStep[];
}

export async function frontierVersionId(db: Db, lineage: { id: string; seedVersionId: string }, frontier: number): Promise<string | null> {
  if (frontier === 0) return lineage.seedVersionId;
  const released = await db.generation.findFirst({
    where: { lineageId: lineage.id, number: frontier, state: 'released' },
    orderBy: { updatedAt: 'desc' },
    select: { versionId: true },
  });
  return released?.versionId ?? null;
}

async function recordGate(db: Db, groupId: string, gate: string): Promise<void> {
  await db.probeGroup.update({ where: { id: groupId }, data: { gate } });
}

async function release(db: Db, lineageId: string, generation: { id: string; number: number; revision: number }): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const moved = await tx.generation.updateMany({
      where: { id: generation.id, state: 'approved', revision: generation.revision },
      data: { state: 'released', revision: { increment: 1 } },
    });
    if (moved.count === 0) return false;
    await tx.lineage.update({ where: { id: lineageId }, data: { frontier: generation.number } });
    return true;
  });
}

async function afterPass(db: Db, lineageId: string, frontier: number, groupId: string, verdict: Extract<GateVerdict, { kind: 'pass' }>): Promise<AdvanceStep> {
  const next = await db.generation.findFirst({
    where: { lineageId, number: frontier + 1, state: 'approved', versionId: { not: null } },
    orderBy: { updatedAt: 'desc' },
  });
  if (next && (await release(db, lineageId, next))) {
    await recordGate(db, groupId, 'released-next');
    return { kind: 'released', generation: next.number, versionId: next.versionId as string };
  }
  const pending = await db.generation.count({ where: { lineageId, number: { gt: frontier }, state: { in: PENDING_STATES } } });
  await recordGate(db, groupId, verdict.saturated ? 'saturated' : 'no-next');
  if (verdict.saturated && pending === 0) {
    const job = await enqueueEvolution(db, { lineageId, generations: 1 }, { dedupeKey: `evolve-after-saturated:${lineageId}:${frontier}` });
    return { kind: 'evolution-requested', generation: frontier, jobId: job.id };
  }
  return { kind: 'no-next', generation: frontier };
}

export async function advanceLineage(db: Db, lineageId: string, releaseAt: number): Promise<AdvanceResult> {
  const lineage = await db.lineage.findUnique({ where: { id: lineageId } });
  if (!lineage) throw new Error(`lineage ${lineageId} not found`);
  let frontier = lineage.frontier ?? 0;
  if (lineage.frontier === null) await db.lineage.update({ where: { id: lineageId }, data: { frontier: 0 } });
  const steps: AdvanceStep[] = [];
  for (;;) {
    const versionId = await frontierVersionId(db, lineage, frontier);
    if (!versionId) {
      steps.push({ kind: 'waiting', generation: frontier, reason: 'the frontier generation has no released version' });
      break;
    }
    const group = await latestGatingGroup(db, versionId);
    if (!group) {
      steps.push({ kind: 'needs-probe', generation: frontier, versionId });
      break;
    }
    const verdict = judgeGroup(group, releaseAt);
    if (verdict.kind === 'hold') {
      await recordGate(db, group.id, 'held');
      steps.push({ kind: 'held', generation: frontier, passes: group.passes, size: group.size });
      break;
    }
    if (verdict.kind === 'incomplete') {
      steps.push({ kind: 'waiting', generation: frontier, reason: verdict.reason });
      break;
    }
    const step = await afterPass(db, lineageId, frontier, group.id, verdict);
    steps.push(step);
    if (step.kind !== 'released') break;
    frontier = step.generation;
  }
  return { lineageId, frontier, steps };
}
