// Undoing a decision within a short window: a misclick on "approve" costs a few seconds, not a
// probe run and a release. The undo is real and server-side — the review row goes, the
// generation returns to awaiting review at the revision the reviewer decided on, the follow-up
// job is withdrawn — and audited. It is refused once anything has built on the decision: a
// later decision, a started (or, on PostgreSQL, dispatched) job, or generations superseded by a
// rejection or a change request.
import { recordAudit } from '../audit/index.ts';
import type { Db, Prisma } from '../db/index.ts';
import { DecisionRefusedError } from './errors.ts';
import { followUpJobKey } from './follow-up.ts';
import type { PersonActor } from '../auth/index.ts';
import { changeGenerationState, StaleGenerationError } from '../evolution/index.ts';
import { DECIDED_STATE, GenerationState } from '../states/index.ts';
import { JobState } from '../queue/index.ts';
import type { Decision } from './types.ts';

export const UNDO_WINDOW_MS = 30_000;

export interface UndoOutcome {
  generationId: string;
  state: string;
  revision: number;
}

/** Whether the review may still be undone at `now`, by time alone. */
export function withinUndoWindow(decidedAt: Date, now: Date): boolean {
  return now.getTime() - decidedAt.getTime() <= UNDO_WINDOW_MS;
}

export async function undoDecision(db: Db, input: { generationId: string; reviewId: string; user: PersonActor; now?: Date }): Promise<UndoOutcome> {
  return db.$transaction((tx) => undoIn(tx, input, input.now ?? new Date()));
}

async function undoIn(tx: Prisma.TransactionClient, input: { generationId: string; reviewId: string; user: PersonActor }, now: Date): Promise<UndoOutcome> {
  const { user } = input;
  const review = await tx.review.findUnique({ where: { id: input.reviewId }, include: { generation: true } });
  if (!review || review.reviewerId !== user.id || review.generationId !== input.generationId)
    throw new DecisionRefusedError('There is no decision of yours to undo.');
  if (!withinUndoWindow(review.createdAt, now)) {
    throw new DecisionRefusedError(`Decisions can be undone for ${UNDO_WINDOW_MS / 1000} seconds; this one is older.`);
  }
  const later = await tx.review.count({ where: { generationId: review.generationId, createdAt: { gt: review.createdAt } } });
  if (later > 0) throw new DecisionRefusedError('Another decision was made on this generation since; yours can no longer be undone.');

  const decision = review.decision as Decision;
  const generation = review.generation;
  const settled = generation.revision === review.revision + 1 && generation.state === DECIDED_STATE[decision];
  if (!settled && !(generation.revision === review.revision && generation.state === GenerationState.awaitingReview)) {
    throw new DecisionRefusedError(`The generation has moved on since your decision (it is ${generation.state}); it can no longer be undone.`);
  }
  const audit = { actor: user, action: `generation.undo-${decision}`, before: { reviewId: review.id } };
  if (settled) {
    await withdrawFollowUp(tx, decision, generation.id, generation.revision);
    await changeGenerationState(tx, generation, { to: GenerationState.awaitingReview, restoreRevision: review.revision, audit }).catch((err: unknown) => {
      throw err instanceof StaleGenerationError ? new DecisionRefusedError('The generation changed while undoing; reload to see it.') : err;
    });
  } else {
    // An approval that had not yet settled it: the generation never moved, only the review goes.
    await recordAudit(tx, {
      ...audit,
      subjectType: 'generation',
      subjectId: generation.id,
      before: { state: generation.state, revision: generation.revision, ...audit.before },
      after: { state: generation.state, revision: review.revision },
    });
  }
  await tx.review.delete({ where: { id: review.id } });
  return { generationId: generation.id, state: GenerationState.awaitingReview, revision: review.revision };
}

// The follow-up job may go only while nothing has picked it up.
async function withdrawFollowUp(tx: Prisma.TransactionClient, decision: Decision, generationId: string, revision: number): Promise<void> {
  if (decision !== 'approve') {
    // decide() audits the generations a rejection or a change request superseded; their earlier
    // states are not kept, so the decision stands.
    const audit = await tx.auditEvent.findFirst({
      where: { subjectId: generationId, action: `generation.${decision}` },
      orderBy: { createdAt: 'desc' },
      select: { after: true },
    });
    const superseded = (JSON.parse(audit?.after ?? '{}') as { superseded?: string[] }).superseded ?? [];
    const what = decision === 'reject' ? 'rejection' : 'change request';
    if (superseded.length > 0) throw new DecisionRefusedError(`This ${what} superseded ${superseded.length} generations evolved from it; it cannot be undone.`);
    if (decision === 'reject') return;
  }
  const dedupeKey = followUpJobKey(decision, generationId, revision);
  if (!dedupeKey) return;
  const withdrawn = await tx.job.deleteMany({ where: { dedupeKey, state: JobState.queued, dispatchedAt: null } });
  const remaining = await tx.job.count({ where: { dedupeKey } });
  if (withdrawn.count === 0 && remaining > 0)
    throw new DecisionRefusedError(`The ${decision === 'approve' ? 'probe' : 'revision'} this decision queued has started; it can no longer be undone.`);
}

export interface UndoableDecision {
  reviewId: string;
  generationId: string;
  decision: Decision;
  lineageName: string;
  number: number;
  state: string;
}

/** The reviewer's own decision, while it can still be undone by time; otherwise null. */
export async function undoableDecision(db: Db, reviewId: string, reviewerId: string, now = new Date()): Promise<UndoableDecision | null> {
  const review = await db.review.findUnique({
    where: { id: reviewId },
    select: {
      id: true,
      reviewerId: true,
      decision: true,
      createdAt: true,
      generation: { select: { id: true, number: true, state: true, lineage: { select: { name: true } } } },
    },
  });
  if (!review || review.reviewerId !== reviewerId || !withinUndoWindow(review.createdAt, now)) return null;
  const g = review.generation;
  return { reviewId: review.id, generationId: g.id, decision: review.decision as Decision, lineageName: g.lineage.name, number: g.number, state: g.state };
}
