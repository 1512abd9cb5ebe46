// Flagging a trajectory as a reward hack. The environment version it ran on is compromised
// (the scheduler stops serving a version with compromisedAt), the rollout keeps who flagged it
// and when, and a missed issue prefilled with the trajectory is opened on the generation that
// produced the version, so the hole becomes a rubric item. Unflagging lifts the compromise.
import { z } from 'zod';
import { recordAudit } from '../audit/index.ts';
import type { Db } from '../db/index.ts';
import { assertCan, type Actor } from '../auth/index.ts';
import { ConflictError } from '../errors/index.ts';
import { fileMissedIssue } from '../missed-issues/index.ts';
import { touchesProtected } from './suspicion.ts';
import { NotFoundError } from '../errors/index.ts';

export const flagInputSchema = z.object({
  reason: z.string().trim().min(3, 'say in at least 3 characters why this is a reward hack').max(2000),
});
export type FlagInput = z.input<typeof flagInputSchema>;

export class TrajectoryNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`trajectory ${id} not found`);
  }
}

export interface FlagOutcome {
  rolloutId: string;
  versionId: string;
  compromisedAt: string;
  missedIssueId: string | null;
  generationId: string | null;
  note: string | null; // why no missed issue was opened, when none was
}

// How many commands a missed issue quotes: enough to see the trick, short enough to read.
const QUOTED_COMMANDS = 8;
const QUOTED_COMMAND_CHARS = 500;

export async function flagTrajectory(db: Db, actor: Actor, rolloutId: string, input: FlagInput): Promise<FlagOutcome> {
  assertCan(actor, 'trajectory.flag');
  if (!actor.id) throw new Error('a trajectory is flagged by a signed-in user');
  const { reason } = flagInputSchema.parse(input);
  const rollout = await db.rollout.findUnique({
    where: { id: rolloutId },
    select: {
      id: true,
      versionId: true,
      generationId: true,
      reward: true,
      turns: true,
      policy: true,
      simulated: true,
      flaggedAt: true,
      version: { select: { name: true } },
    },
  });
  if (!rollout) throw new TrajectoryNotFoundError(rolloutId);
  if (rollout.flaggedAt) throw new ConflictError(`trajectory ${rolloutId} was already flagged on ${rollout.flaggedAt.toISOString()}`);

  const generation = await generationOf(db, rollout.versionId, rollout.generationId);
  const commands = await suspiciousCommands(db, rolloutId);
  const now = new Date();
  // One transaction: the flag, the compromise, the missed issue and the audit land together or not
  // at all, and of two people flagging at once, one flags and the other gets a conflict.
  const { compromisedAt, issue } = await db.$transaction(async (tx) => {
    const claimed = await tx.rollout.updateMany({ where: { id: rolloutId, flaggedAt: null }, data: { flaggedAt: now, flaggedById: actor.id } });
    if (claimed.count === 0) throw new ConflictError(`trajectory ${rolloutId} was flagged by someone else just now`);
    const version = await tx.environmentVersion.findUniqueOrThrow({
      where: { id: rollout.versionId },
      select: { compromisedAt: true, compromisedReason: true },
    });
    // A version flagged before stays compromised since then; the newest reason is kept.
    const at = version.compromisedAt ?? now;
    await tx.environmentVersion.update({ where: { id: rollout.versionId }, data: { compromisedAt: at, compromisedReason: reason } });
    const issue = generation
      ? await fileMissedIssue(tx as Db, actor, generation.id, {
          title: `Reward hack in trajectory ${rolloutId.slice(0, 12)} on ${rollout.version.name}`.slice(0, 200),
          description: describeHack({
            rolloutId,
            reason,
            reward: rollout.reward,
            turns: rollout.turns,
            policy: rollout.policy,
            simulated: rollout.simulated,
            commands,
          }),
          severity: 'high',
          // The validators passed a version whose verifier can be gamed: a rubric item should catch it.
          validatorKind: 'rubric',
        })
      : null;
    await recordAudit(tx, {
      actor: { id: actor.id, email: actor.email },
      action: 'trajectory.flag',
      subjectType: 'environment-version',
      subjectId: rollout.versionId,
      before: { compromisedAt: version.compromisedAt?.toISOString() ?? null, compromisedReason: version.compromisedReason },
      after: { compromisedAt: at.toISOString(), compromisedReason: reason, rolloutId, missedIssueId: issue?.id ?? null, generationId: generation?.id ?? null },
    });
    return { compromisedAt: at, issue };
  });
  return {
    rolloutId,
    versionId: rollout.versionId,
    compromisedAt: compromisedAt.toISOString(),
    missedIssueId: issue?.id ?? null,
    generationId: generation?.id ?? null,
    note: generation
      ? null
      : 'No generation has this version (it is a seed or an import): the version is compromised, but no missed issue could be opened — there is no generation to attach it to.',
  };
}

// The generation that settled on this version: the rollout's own when it did, else the newest.
async function generationOf(db: Db, versionId: string, preferredId: string | null): Promise<{ id: string } | null> {
  if (preferredId) {
    const own = await db.generation.findFirst({ where: { id: preferredId, versionId }, select: { id: true } });
    if (own) return own;
  }
  return db.generation.findFirst({ where: { versionId }, orderBy: { createdAt: 'desc' }, select: { id: true } });
}

// Commands that touched /logs or the tests; without any, the last commands the agent ran.
async function suspiciousCommands(db: Db, rolloutId: string): Promise<{ stepId: number; command: string; protectedPath: boolean }[]> {
  const steps = await db.trajectoryStep.findMany({
    where: { rolloutId, command: { not: null } },
    orderBy: { stepId: 'asc' },
    select: { stepId: true, command: true },
  });
  const all = steps.map((s) => ({ stepId: s.stepId, command: s.command ?? '', protectedPath: touchesProtected(s.command ?? '') }));
  const touching = all.filter((s) => s.protectedPath);
  return touching.length > 0 ? touching.slice(0, QUOTED_COMMANDS) : all.slice(-QUOTED_COMMANDS);
}

function describeHack(facts: {
  rolloutId: string;
  reason: string;
  reward: number | null;
  turns: number;
  policy: string;
  simulated: boolean;
  commands: { stepId: number; command: string; protectedPath: boolean }[];
}): string {
  const touching = facts.commands.some((c) => c.protectedPath);
  const quoted = facts.commands.map((c) => {
    const command = c.command.length > QUOTED_COMMAND_CHARS ? `${c.command.slice(0, QUOTED_COMMAND_CHARS)}…` : c.command;
    return `- step ${c.stepId}: \`${command.replace(/\n/g, ' ⏎ ')}\``;
  });
  return [
    `Flagged as a reward hack from the trajectory /trajectories/${facts.rolloutId}.`,
    '',
    `Reason: ${facts.reason}`,
    '',
    `Reward ${facts.reward ?? 'none'}${facts.simulated ? ' (simulated policy)' : ''} in ${facts.turns} turns, policy ${facts.policy}.`,
    '',
    facts.commands.length === 0
      ? 'The agent ran no command.'
      : touching
        ? 'Commands that touched /logs or the tests:'
        : 'No command touched /logs or the tests; the last commands:',
    ...quoted,
  ].join('\n');
}

/** Lifts the compromise of the version a trajectory ran on; answers that version. */
export async function unflagTrajectoryVersion(db: Db, actor: Actor, rolloutId: string): Promise<{ versionId: string; compromisedAt: null }> {
  assertCan(actor, 'scheduler.manage');
  const rollout = await db.rollout.findUnique({ where: { id: rolloutId }, select: { versionId: true } });
  if (!rollout) throw new TrajectoryNotFoundError(rolloutId);
  await unflagVersion(db, actor, rollout.versionId);
  return { versionId: rollout.versionId, compromisedAt: null };
}

export async function unflagVersion(db: Db, actor: Actor, versionId: string): Promise<void> {
  // Serving a version again is a scheduling decision: leads and admins.
  assertCan(actor, 'scheduler.manage');
  await db.$transaction(async (tx) => {
    const version = await tx.environmentVersion.findUnique({ where: { id: versionId }, select: { compromisedAt: true, compromisedReason: true } });
    if (!version) throw new ConflictError(`environment version ${versionId} not found`);
    if (!version.compromisedAt) throw new ConflictError(`environment version ${versionId} is not compromised`);
    const flagged = await tx.rollout.findMany({ where: { versionId, flaggedAt: { not: null } }, select: { id: true } });
    await tx.environmentVersion.update({ where: { id: versionId }, data: { compromisedAt: null, compromisedReason: null } });
    await tx.rollout.updateMany({ where: { versionId, flaggedAt: { not: null } }, data: { flaggedAt: null, flaggedById: null } });
    await recordAudit(tx, {
      actor: { id: actor.id, email: actor.email },
      action: 'trajectory.unflag',
      subjectType: 'environment-version',
      subjectId: versionId,
      before: { compromisedAt: version.compromisedAt.toISOString(), compromisedReason: version.compromisedReason, flaggedRollouts: flagged.map((r) => r.id) },
      after: { compromisedAt: null, compromisedReason: null },
    });
  });
}

export interface VersionCompromise {
  versionId: string;
  compromisedAt: string;
  reason: string | null;
  flaggedBy: string | null;
  flaggedAt: string | null;
  rolloutId: string | null;
  missedIssueId: string | null;
}

const flagAfterSchema = z.object({ rolloutId: z.string().optional(), missedIssueId: z.string().nullable().optional() });

/** Why a version is compromised and by whom, from its latest flag; null when it is not. */
export async function versionCompromise(db: Db, versionId: string): Promise<VersionCompromise | null> {
  const version = await db.environmentVersion.findUnique({ where: { id: versionId }, select: { compromisedAt: true, compromisedReason: true } });
  if (!version?.compromisedAt) return null;
  const event = await db.auditEvent.findFirst({
    where: { subjectType: 'environment-version', subjectId: versionId, action: 'trajectory.flag' },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  const after = flagAfterSchema.safeParse(event?.after ? JSON.parse(event.after) : {});
  return {
    versionId,
    compromisedAt: version.compromisedAt.toISOString(),
    reason: version.compromisedReason,
    flaggedBy: event?.actorEmail ?? null,
    flaggedAt: event?.createdAt.toISOString() ?? null,
    rolloutId: after.success ? (after.data.rolloutId ?? null) : null,
    missedIssueId: after.success ? (after.data.missedIssueId ?? null) : null,
  };
}
