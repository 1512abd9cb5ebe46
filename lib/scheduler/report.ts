// A trainer reports the rewards of one rollout group on a version it was served. The group is
// stored beside the probes and the lineage's frontier moves if the group clears its gate (only
// when the trainer's policy is the lineage's probe policy). A trainer says that a rollout timed
// out, never what that is worth: the server scores timeouts with the lineage's timeout reward
// (counted, never dropped), so six timeouts cannot be reported as six passes. A trainer reports
// only under a policy its token names, never under one Envolve runs itself, and every group
// records the token and user that sent it. With an Idempotency-Key a retried report stores
// nothing new and answers the first group (idempotency.ts).
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { parseTokenPolicies } from '../auth/index.ts';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, RefusedError, type DomainError } from '../errors/index.ts';
import { forgetTrainablePool } from './batch.ts';
import type { SchedulerConfig } from './config.ts';
import { advanceLineage, type AdvanceResult } from './frontier.ts';
import { isRunnablePolicy, lineageGate, passes, POLICY_NAMES, ProbeGroupState, TRAINER_POLICY } from '../gate/index.ts';
import { idempotencyScope, isUniqueViolation, liveKey, requestHash, sweepIfDue, type StoredKey } from './idempotency.ts';
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
// version is not found, a flagged or held-out version may not be reported on, a version no
// reviewer approved is in the wrong state for it, and rewards outside the declared range are
// refused. The refusal's kind is the error's code.
export function reportRefusedError(refusal: ReportRefusal): DomainError {
  if (refusal.kind === 'unknown_version') return new NotFoundError(refusal.message);
  if (refusal.kind === 'reward_out_of_range') return new RefusedError(refusal.message, { code: refusal.kind });
  if (refusal.kind === 'rejected' || refusal.kind === 'superseded' || refusal.kind === 'unreviewed') {
    return new ConflictError(refusal.message, { code: refusal.kind, details: { state: refusal.state } });
  }
  return new ForbiddenError(refusal.message, { code: refusal.kind });
}

/** Who sends a report: the user, and the API token presented with the policies it may report for (none: a signed-in session). */
export interface TrainerReporter {
  userId: string;
  email: string;
  tokenId: string | null;
  policies: readonly string[];
}

/**
 * The policies a new token may report for, from `NAME[,NAME]` (blank: `trainer`): plain words, and
 * none that Envolve runs itself (its groups of those come from its own probes).
 */
export function checkTokenPolicies(list: string | readonly string[] | undefined): string[] {
  const names = parseTokenPolicies(list);
  const runByEnvolve = names.filter(isRunnablePolicy);
  if (runByEnvolve.length > 0) {
    throw new InvalidInputError(
      `${runByEnvolve.join(', ')}: Envolve runs these policies itself (${POLICY_NAMES.join(', ')}); a token reports for your trainer's own policy names`,
    );
  }
  return names;
}

/** The reporter a route's caller is: its token's policies, or `trainer` alone for a signed-in session. */
export function trainerReporterOf(user: { id: string; email: string; token?: { id: string; policies: string[] } }): TrainerReporter {
  return { userId: user.id, email: user.email, tokenId: user.token?.id ?? null, policies: user.token?.policies ?? [TRAINER_POLICY] };
}

/** Why this reporter may not report under the report's policy, or null when it may. */
export function reportPolicyRefusal(policy: string, reporter: TrainerReporter): ForbiddenError | null {
  if (isRunnablePolicy(policy)) {
    return new ForbiddenError(
      `policy ${policy} is run by Envolve itself (${POLICY_NAMES.join(', ')}): its groups come from Envolve's own probes, never from the trainer API; report under your trainer's policy (${reporter.policies.join(', ')})`,
      { code: 'policy_run_by_envolve' },
    );
  }
  if (!reporter.policies.includes(policy)) {
    const holder = reporter.tokenId ? 'this API token' : 'a signed-in session (without a token)';
    return new ForbiddenError(
      `${holder} may report for ${reporter.policies.join(', ')} only, not ${policy}: make a token for it (envolve tokens create --policy ${policy}, or /tokens)`,
      { code: 'policy_not_allowed' },
    );
  }
  return null;
}

export interface TrainerReportResult {
  groupId: string;
  passes: number;
  size: number;
  timeouts: number;
  reportedBy: { userId: string; email: string; tokenId: string | null };
  advanced: AdvanceResult[];
}

export interface ReportOptions {
  idempotencyKey?: string;
  idempotencyTtlMs: number;
  now?: Date;
}

/** The answer, and whether it is the first answer to an earlier request with the same key. */
export interface TrainerReportOutcome {
  result: TrainerReportResult;
  replayed: boolean;
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

async function advanceServing(db: Db, versionId: string, config: SchedulerConfig): Promise<AdvanceResult[]> {
  const advanced: AdvanceResult[] = [];
  for (const lineageId of await lineagesServing(db, versionId)) advanced.push(await advanceLineage(db, lineageId, config));
  return advanced;
}

// The first answer again. A key whose first request has not finished (its frontier walk is still
// running, or it failed after the group was stored) has no stored answer: the walk is run now,
// which moves nothing twice (a release is guarded by the generation's revision).
async function replay(db: Db, stored: StoredKey, config: SchedulerConfig): Promise<TrainerReportOutcome> {
  if (stored.response !== null) return { result: JSON.parse(stored.response) as TrainerReportResult, replayed: true };
  const group = await db.probeGroup.findUniqueOrThrow({ where: { id: stored.groupId } });
  const user = group.userId ? await db.user.findUnique({ where: { id: group.userId }, select: { email: true } }) : null;
  const result: TrainerReportResult = {
    groupId: group.id,
    passes: group.passes,
    size: group.size,
    timeouts: group.timeouts,
    reportedBy: { userId: group.userId ?? '', email: user?.email ?? '', tokenId: group.tokenId },
    advanced: await advanceServing(db, group.versionId, config),
  };
  return { result, replayed: true };
}

export async function reportTrainerGroup(
  db: Db,
  report: TrainerReport,
  config: SchedulerConfig,
  reporter: TrainerReporter,
  options: ReportOptions,
): Promise<TrainerReportOutcome> {
  const now = options.now ?? new Date();
  const policyRefusal = reportPolicyRefusal(report.policy, reporter);
  if (policyRefusal) throw policyRefusal;
  const scope = idempotencyScope(reporter);
  const key = options.idempotencyKey;
  const hash = requestHash(report);
  if (key !== undefined) {
    await sweepIfDue(db, now);
    const stored = await liveKey(db, scope, key, hash, now);
    if (stored) return replay(db, stored, config);
  }
  const refusal = await trainerReportRefusal(db, report);
  if (refusal) throw reportRefusedError(refusal);
  const lineages = await lineagesServing(db, report.versionId);
  const scored = scoredRewards(report, await serverTimeoutReward(db, lineages, config));
  const passCount = scored.filter((s) => passes(s.reward, config.passThreshold)).length;
  const timeouts = scored.filter((s) => s.timedOut).length;
  const data = {
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
    finishedAt: now,
    tokenId: reporter.tokenId,
    userId: reporter.userId,
  };
  let groupId: string;
  try {
    // Writes only, group then key: the key's unique constraint makes a racing twin roll back.
    groupId = await db.$transaction(async (tx) => {
      if (key !== undefined) await tx.idempotencyKey.deleteMany({ where: { scope, key, expiresAt: { lte: now } } });
      const group = await tx.probeGroup.create({ data, select: { id: true } });
      if (key !== undefined) {
        await tx.idempotencyKey.create({
          data: { scope, key, requestHash: hash, groupId: group.id, createdAt: now, expiresAt: new Date(now.getTime() + options.idempotencyTtlMs) },
        });
      }
      return group.id;
    });
  } catch (err) {
    if (key === undefined || !isUniqueViolation(err)) throw err;
    const winner = await liveKey(db, scope, key, hash, now);
    if (!winner) throw err;
    return replay(db, winner, config);
  }
  forgetTrainablePool(db);
  const advanced: AdvanceResult[] = [];
  for (const lineageId of lineages) advanced.push(await advanceLineage(db, lineageId, config));
  const result: TrainerReportResult = {
    groupId,
    passes: passCount,
    size: scored.length,
    timeouts,
    reportedBy: { userId: reporter.userId, email: reporter.email, tokenId: reporter.tokenId },
    advanced,
  };
  if (key !== undefined) await db.idempotencyKey.update({ where: { scope_key: { scope, key } }, data: { response: JSON.stringify(result) } });
  return { result, replayed: false };
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
