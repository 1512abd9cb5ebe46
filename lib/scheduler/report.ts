// A trainer reports the rewards of one rollout group on a version it was served. The group is
// stored beside the probes and the lineage's frontier moves if the group clears its gate (only
// when the trainer's policy is the lineage's probe policy). A trainer says that a rollout timed
// out, never what that is worth: the server scores timeouts with the lineage's timeout reward
// (counted, never dropped), so six timeouts cannot be reported as six passes.
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { ForbiddenError, NotFoundError, RefusedError, type DomainError } from '../errors/index.ts';
import { forgetTrainablePool } from './batch.ts';
import type { SchedulerConfig } from './config.ts';
import { advanceLineage, type AdvanceResult } from './frontier.ts';
import { lineageGate, passes, ProbeGroupState } from '../gate/index.ts';
import { trainerReportRefusal, type ReportRefusal } from './report-refusal.ts';
import { GenerationState } from '../states/index.ts';

export const trainerReportSchema = z
  .object({
    versionId: z.string().min(1).max(128),
    rewards: z.array(z.number().finite().nullable()).min(1).max(256), // null: the rollout timed out
    timedOut: z.array(z.boolean()).optional(),
    policy: z.string().min(1).max(200).default('trainer'),
    policyVersion: z.string().max(200).default(''),
    timeoutReward: z
      .unknown()
      .refine((v) => v === undefined, {
        message:
          "a trainer reports that a rollout timed out (null reward or timedOut), not what it is worth: the server scores timeouts from the lineage's timeoutReward",
      })
      .optional(),
  })
  .refine((r) => r.timedOut === undefined || r.timedOut.length === r.rewards.length, {
    message: 'timedOut must have one entry per reward',
    path: ['timedOut'],
  });

export type TrainerReport = z.infer<typeof trainerReportSchema>;

// The report was refused before anything was recorded (see trainerReportRefusal): an unknown
// version is not found, a version that is not served may not be reported on, and rewards outside
// the declared range are refused. The refusal's kind is the error's code.
export function reportRefusedError(refusal: ReportRefusal): DomainError {
  if (refusal.kind === 'unknown_version') return new NotFoundError(refusal.message);
  if (refusal.kind === 'reward_out_of_range') return new RefusedError(refusal.message, { code: refusal.kind });
  return new ForbiddenError(refusal.message, { code: refusal.kind });
}

export interface TrainerReportResult {
  groupId: string;
  passes: number;
  size: number;
  timeouts: number;
  advanced: AdvanceResult[];
}

export function scoredRewards(report: TrainerReport, timeoutReward: number): { reward: number; timedOut: boolean }[] {
  return report.rewards.map((reward, i) => {
    const timedOut = reward === null || report.timedOut?.[i] === true;
    return { reward: timedOut ? timeoutReward : (reward as number), timedOut };
  });
}

// The lowest timeout reward among the lineages the version serves (a shared version is scored
// so that no lineage counts a timeout higher than it allows); the scheduler's default otherwise.
async function serverTimeoutReward(db: Db, lineageIds: string[], config: SchedulerConfig): Promise<number> {
  const lineages = await db.lineage.findMany({ where: { id: { in: lineageIds } } });
  const rewards = lineages.map((l) => lineageGate(l, config).timeoutReward);
  return rewards.length ? Math.min(...rewards) : config.timeoutReward;
}

export async function reportTrainerGroup(db: Db, report: TrainerReport, config: SchedulerConfig): Promise<TrainerReportResult> {
  const refusal = await trainerReportRefusal(db, report);
  if (refusal) throw reportRefusedError(refusal);
  const lineages = await lineagesServing(db, report.versionId);
  const scored = scoredRewards(report, await serverTimeoutReward(db, lineages, config));
  const passCount = scored.filter((s) => passes(s.reward, config.passThreshold)).length;
  const timeouts = scored.filter((s) => s.timedOut).length;
  const group = await db.probeGroup.create({
    data: {
      versionId: report.versionId,
      purpose: 'trainer',
      policy: report.policy,
      policyVersion: report.policyVersion,
      size: scored.length,
      passThreshold: config.passThreshold,
      passes: passCount,
      completed: scored.length,
      timeouts,
      state: ProbeGroupState.complete,
      finishedAt: new Date(),
    },
  });
  forgetTrainablePool(db);
  const advanced: AdvanceResult[] = [];
  for (const lineageId of lineages) advanced.push(await advanceLineage(db, lineageId, config));
  return { groupId: group.id, passes: passCount, size: scored.length, timeouts, advanced };
}

// Lineages whose frontier is this version (as their seed or a released generation).
async function lineagesServing(db: Db, versionId: string): Promise<string[]> {
  const [asSeed, asGeneration] = await Promise.all([
    db.lineage.findMany({ where: { seedVersionId: versionId }, select: { id: true, frontier: true } }),
    db.generation.findMany({
      where: { versionId, state: GenerationState.released },
      select: { lineageId: true, number: true, lineage: { select: { frontier: true } } },
    }),
  ]);
  const ids = asSeed.filter((l) => (l.frontier ?? 0) === 0).map((l) => l.id);
  for (const g of asGeneration) if (g.lineage.frontier === g.number) ids.push(g.lineageId);
  return [...new Set(ids)];
}
