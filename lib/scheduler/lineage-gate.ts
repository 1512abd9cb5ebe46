// Changing a lineage's release gate. Changing the probe policy re-evaluates the frontier from the new policy's groups only:
// generations released by another policy go back to approved (the groups that released them
// keep their gate and rule, so history stays readable) and the frontier walks forward again,
// queueing the probe the new rule waits for (a trainer's policy is waited for instead). A change
// that withdraws releases must be confirmed, and the refusal names what it would withdraw. The
// oracle and nop cannot gate a lineage (gate-policy.ts).
import { z } from 'zod';
import { recordAudit, type AuditActor } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import type { SchedulerConfig } from './config.ts';
import { type AdvanceResult } from './frontier.ts';
import { lineageGate, type LineageGate, gatePolicyRefusal } from '../gate/index.ts';
import { scheduleLineage } from './jobs.ts';
import { changeGenerationState } from '../evolution/index.ts';
import { GenerationState } from '../states/index.ts';
import { ConflictError, NotFoundError, RefusedError } from '../errors/index.ts';

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

// The route's body: the patch, and whether the caller confirmed what a policy change withdraws.
export const lineageGateChangeSchema = lineageGatePatchSchema.extend({ confirmWithdrawal: z.boolean().optional() });

export class UnknownLineageError extends NotFoundError {}

type Reader = Pick<Db, 'generation'>;

// The released generations a change to `policy` would send back to approved: from the first one
// that another policy released, every release after it.
export async function withdrawnByPolicy(db: Reader, lineageId: string, policy: string): Promise<number[]> {
  const releasedByOther = await db.generation.findFirst({
    where: { lineageId, state: GenerationState.released, OR: [{ releasedByPolicy: null }, { releasedByPolicy: { not: policy } }] },
    orderBy: { number: 'asc' },
    select: { number: true },
  });
  if (!releasedByOther) return [];
  const withdrawn = await db.generation.findMany({
    where: { lineageId, state: GenerationState.released, number: { gte: releasedByOther.number } },
    orderBy: { number: 'asc' },
    select: { number: true },
  });
  return withdrawn.map((g) => g.number);
}

export function withdrawalText(numbers: number[], policy: string): string {
  return `changing the policy to ${policy} withdraws the release of ${numbers.map((n) => `G${n}`).join(', ')} (back to approved until ${policy} groups release them)`;
}

export interface GateChangeOptions {
  confirmWithdrawal?: boolean; // the caller saw what the change withdraws and agreed
}

export async function setLineageGate(
  db: Db,
  actor: AuditActor,
  lineageId: string,
  patch: LineageGatePatch,
  config: SchedulerConfig,
  options: GateChangeOptions = {},
): Promise<AdvanceResult> {
  const before = await db.lineage.findUnique({ where: { id: lineageId } });
  if (!before) throw new UnknownLineageError(`lineage ${lineageId} not found`);
  const ruleBefore = lineageGate(before, config);
  const policyChanged = patch.probePolicy !== undefined && patch.probePolicy !== ruleBefore.policy;
  if (policyChanged) {
    const refusal = gatePolicyRefusal(patch.probePolicy as string, before.demoMode);
    if (refusal) throw new RefusedError(refusal, { code: 'gate_policy_refused' });
    const withdrawn = await withdrawnByPolicy(db, lineageId, patch.probePolicy as string);
    if (withdrawn.length > 0 && !options.confirmWithdrawal) {
      throw new ConflictError(`${withdrawalText(withdrawn, patch.probePolicy as string)}: confirm to go ahead`, {
        code: 'confirm_withdrawal',
        details: { withdrawn },
      });
    }
  }
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
    const firstWithdrawn = (await withdrawnByPolicy(tx, lineageId, patch.probePolicy as string))[0];
    if (firstWithdrawn === undefined) return;
    // Everything from the first generation the new policy did not release is back to be decided.
    const withdrawn = await tx.generation.findMany({
      where: { lineageId, state: GenerationState.released, number: { gte: firstWithdrawn } },
      orderBy: { number: 'asc' },
    });
    for (const generation of withdrawn) {
      await changeGenerationState(tx, generation, {
        to: GenerationState.approved,
        data: { releasedByGroupId: null, releasedByPolicy: null, releaseRule: null },
        audit: { actor, action: 'generation.withdraw', after: { reason: `the probe policy changed to ${patch.probePolicy}` } },
      });
    }
    await tx.lineage.update({ where: { id: lineageId }, data: { frontier: firstWithdrawn - 1 } });
  });
  return scheduleLineage(db, lineageId, config);
}

export async function lineageGateOf(db: Db, lineageId: string, config: SchedulerConfig): Promise<LineageGate | null> {
  const lineage = await db.lineage.findUnique({ where: { id: lineageId } });
  return lineage ? lineageGate(lineage, config) : null;
}
