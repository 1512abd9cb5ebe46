// Changing a lineage's release gate. Changing the probe policy re-evaluates the frontier from the new policy's groups only:
// generations released by another policy go back to approved (the groups that released them
// keep their gate and rule, so history stays readable) and the frontier walks forward again.
import { z } from 'zod';
import { recordAudit, type AuditActor } from '../audit/record.ts';
import type { Db } from '../db/client.ts';
import type { SchedulerConfig } from './config.ts';
import { advanceLineage, type AdvanceResult } from './frontier.ts';
import { lineageGate, type LineageGate } from './gate.ts';
import { GenerationState, transition } from '../evolution/states.ts';
import { NotFoundError } from '../errors/index.ts';

export const lineageGatePatchSchema = z
  .object({
    probePolicy: z.string().min(1).max(200),
    releaseRate: z.number().gt(0).max(1),
    minGroup: z.number().int().min(1).max(256),
    timeoutReward: z.number().finite(),
  })
  .partial()
  .strict();

export type LineageGatePatch = z.infer<typeof lineageGatePatchSchema>;

export class UnknownLineageError extends NotFoundError {}

export async function setLineageGate(db: Db, actor: AuditActor, lineageId: string, patch: LineageGatePatch, config: SchedulerConfig): Promise<AdvanceResult> {
  const before = await db.lineage.findUnique({ where: { id: lineageId } });
  if (!before) throw new UnknownLineageError(`lineage ${lineageId} not found`);
  const ruleBefore = lineageGate(before, config);
  const policyChanged = patch.probePolicy !== undefined && patch.probePolicy !== ruleBefore.policy;
  await db.$transaction(async (tx) => {
    const after = await tx.lineage.update({ where: { id: lineageId }, data: patch });
    await recordAudit(tx, {
      actor,
      action: 'lineage.gate',
      subjectType: 'lineage',
      subjectId: lineageId,
      before: ruleBefore,
      after: lineageGate(after, config),
    });
    if (!policyChanged) return;
    const releasedByOther = await tx.generation.findMany({
      where: { lineageId, state: GenerationState.released, OR: [{ releasedByPolicy: null }, { releasedByPolicy: { not: patch.probePolicy } }] },
      orderBy: { number: 'asc' },
      select: { number: true },
    });
    const firstWithdrawn = releasedByOther[0]?.number;
    if (firstWithdrawn === undefined) return;
    // Everything from the first generation the new policy did not release is back to be decided.
    await tx.generation.updateMany({
      where: { lineageId, state: GenerationState.released, number: { gte: firstWithdrawn } },
      data: {
        state: transition(GenerationState.released, GenerationState.approved),
        revision: { increment: 1 },
        releasedByGroupId: null,
        releasedByPolicy: null,
        releaseRule: null,
      },
    });
    await tx.lineage.update({ where: { id: lineageId }, data: { frontier: firstWithdrawn - 1 } });
  });
  return advanceLineage(db, lineageId, config);
}

export async function lineageGateOf(db: Db, lineageId: string, config: SchedulerConfig): Promise<LineageGate | null> {
  const lineage = await db.lineage.findUnique({ where: { id: lineageId } });
  return lineage ? lineageGate(lineage, config) : null;
}
