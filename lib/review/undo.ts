// Undoing a decision within a short window: a misclick costs a few seconds, not a probe run, a
// release or a rebuilt lineage. The undo is real and server-side — the review row goes, the
// generation returns to awaiting review at the revision the reviewer decided on, the follow-up
// job is withdrawn, the generations the decision set aside (superseded) stand again where they
// stood — and audited. It is refused once anything has built on the decision: a later decision, a
// started (or, on PostgreSQL, dispatched) job, a set-aside generation that moved since, or a
// generation evolved in the lineage since. The page asks the same question (undoableDecision), so
// it offers the undo only while it can work.
import { recordAudit } from '../audit/index.ts';
import type { Db, Generation, Prisma } from '../db/index.ts';
import { DecisionRefusedError } from './errors.ts';
import { followUpJobKey } from './follow-up.ts';
import type { PersonActor } from '../auth/index.ts';
import { changeGenerationState, StaleGenerationError } from '../evolution/index.ts';
import { DECIDED_STATE, GenerationState, inGroup, SUPERSEDABLE_STATES } from '../states/index.ts';
import { JobState } from '../queue/index.ts';
import type { Decision } from './types.ts';

export const UNDO_WINDOW_MS = 30_000;

type Tx = Prisma.TransactionClient;

export interface UndoOutcome {
  generationId: string;
  state: string;
  revision: number;
  restored: SetAside[]; // the generations the decision had set aside, standing again
}

/** A generation a rejection or a change request superseded, with where it stood before. */
export interface SetAside {
  id: string;
  number: number;
}

interface Restorable extends SetAside {
  state: string; // superseded, at `revision`, as the decision left it
  revision: number;
  before: { state: string; revision: number; error: string | null };
}

/** Whether the review may still be undone at `now`, by time alone. */
export function withinUndoWindow(decidedAt: Date, now: Date): boolean {
  return now.getTime() - decidedAt.getTime() <= UNDO_WINDOW_MS;
}

interface ReviewRow {
  id: string;
  reviewerId: string;
  generationId: string;
  decision: string;
  revision: number;
  createdAt: Date;
  generation: Generation;
}

// What undoing the review would do, or why it cannot: every check the undo makes, in order.
type Plan = { refusal: string } | { refusal: null; settled: boolean; setAside: Restorable[] };

async function planUndo(tx: Tx, review: ReviewRow, now: Date): Promise<Plan> {
  if (!withinUndoWindow(review.createdAt, now)) {
    return { refusal: `decisions can be undone for ${UNDO_WINDOW_MS / 1000} seconds; this one is older` };
  }
  const later = await tx.review.count({ where: { generationId: review.generationId, createdAt: { gt: review.createdAt } } });
  if (later > 0) return { refusal: 'another decision was made on this generation since' };

  const decision = review.decision as Decision;
  const generation = review.generation;
  const settled = generation.revision === review.revision + 1 && generation.state === DECIDED_STATE[decision];
  if (!settled && !(generation.revision === review.revision && generation.state === GenerationState.awaitingReview)) {
    return { refusal: `the generation has moved on since (it is ${generation.state})` };
  }
  if (!settled) return { refusal: null, settled, setAside: [] };

  const setAside = decision === 'approve' ? [] : await setAsideBy(tx, review);
  for (const g of setAside) {
    if (g.state !== GenerationState.superseded || g.revision !== g.before.revision + 1) {
      return { refusal: `generation ${g.number}, which it set aside, has changed since (it is ${g.state})` };
    }
  }
  if (setAside.length > 0) {
    const rebuilt = await tx.generation.findFirst({
      where: { lineageId: generation.lineageId, createdAt: { gt: review.createdAt } },
      orderBy: { number: 'asc' },
      select: { number: true },
    });
    if (rebuilt) return { refusal: `generation ${rebuilt.number} was evolved in the lineage since` };
  }
  const dedupeKey = followUpJobKey(decision, generation.id, generation.revision);
  if (dedupeKey) {
    const started = await tx.job.count({ where: { dedupeKey, NOT: { state: JobState.queued, dispatchedAt: null } } });
    if (started > 0) return { refusal: `the ${decision === 'approve' ? 'probe' : 'revision'} it queued has started` };
  }
  return { refusal: null, settled, setAside };
}

// decide() records the generations a rejection or a change request superseded with its audit
// event, and each supersede event records where that generation stood.
async function setAsideBy(tx: Tx, review: ReviewRow): Promise<Restorable[]> {
  const decided = await tx.auditEvent.findFirst({
    where: { subjectId: review.generationId, action: `generation.${review.decision}`, createdAt: { gte: review.createdAt } },
    orderBy: { createdAt: 'asc' },
    select: { after: true },
  });
  const ids = (JSON.parse(decided?.after ?? '{}') as { superseded?: string[] }).superseded ?? [];
  if (ids.length === 0) return [];
  const rows = await tx.generation.findMany({
    where: { id: { in: ids } },
    orderBy: { number: 'asc' },
    select: { id: true, number: true, state: true, revision: true },
  });
  return Promise.all(
    rows.map(async (row) => {
      const event = await tx.auditEvent.findFirst({
        where: { subjectId: row.id, action: 'generation.supersede', createdAt: { gte: review.createdAt } },
        orderBy: { createdAt: 'asc' },
        select: { before: true },
      });
      const before = JSON.parse(event?.before ?? '{}') as { state?: string; revision?: number; error?: string | null };
      return { ...row, before: { state: before.state ?? '', revision: before.revision ?? -1, error: before.error ?? null } };
    }),
  );
}

/** How many generations a change request's revision evolves again once it settles: one per position set aside. */
export function rebuildCount(setAside: readonly { number: number }[]): number {
  return new Set(setAside.map((g) => g.number)).size;
}

export async function undoDecision(db: Db, input: { generationId: string; reviewId: string; user: PersonActor; now?: Date }): Promise<UndoOutcome> {
  return db.$transaction((tx) => undoIn(tx, input, input.now ?? new Date()));
}

async function undoIn(tx: Tx, input: { generationId: string; reviewId: string; user: PersonActor }, now: Date): Promise<UndoOutcome> {
  const { user } = input;
  const review = await tx.review.findUnique({ where: { id: input.reviewId }, include: { generation: true } });
  if (!review || review.reviewerId !== user.id || review.generationId !== input.generationId)
    throw new DecisionRefusedError('There is no decision of yours to undo.');
  const plan = await planUndo(tx, review, now);
  if (plan.refusal !== null) throw new DecisionRefusedError(`Your decision can no longer be undone: ${plan.refusal}.`);

  const decision = review.decision as Decision;
  const generation = review.generation;
  const restored = plan.setAside.map(({ id, number }) => ({ id, number }));
  const audit = {
    actor: user,
    action: `generation.undo-${decision}`,
    before: { reviewId: review.id },
    after: restored.length > 0 ? { restored: restored.map((g) => g.id) } : undefined,
  };
  if (plan.settled) {
    const dedupeKey = followUpJobKey(decision, generation.id, generation.revision);
    if (dedupeKey) await tx.job.deleteMany({ where: { dedupeKey, state: JobState.queued, dispatchedAt: null } });
    await changeGenerationState(tx, generation, { to: GenerationState.awaitingReview, restoreRevision: review.revision, audit }).catch(stale);
    // The decided generation stands again first, so the ones built on its version rest on a standing one.
    for (const g of plan.setAside) await restore(tx, g, user, review.id);
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
  return { generationId: generation.id, state: GenerationState.awaitingReview, revision: review.revision, restored };
}

function stale(err: unknown): never {
  throw err instanceof StaleGenerationError ? new DecisionRefusedError('A generation changed while undoing; reload to see it.') : err;
}

// Back to the state, revision and error it had before it was superseded, so approvals given at
// that revision count again.
async function restore(tx: Tx, g: Restorable, user: PersonActor, reviewId: string): Promise<void> {
  if (!inGroup(g.before.state, SUPERSEDABLE_STATES)) throw new DecisionRefusedError(`Generation ${g.number}'s earlier state is not known; nothing was undone.`);
  await changeGenerationState(tx, g, {
    to: g.before.state as GenerationState,
    data: { error: g.before.error },
    restoreRevision: g.before.revision,
    audit: { actor: user, action: 'generation.restore', after: { undoes: reviewId } },
  }).catch(stale);
}

export interface UndoableDecision {
  reviewId: string;
  generationId: string;
  decision: Decision;
  lineageName: string;
  number: number;
  state: string;
  setAside: SetAside[]; // the generations the decision superseded
  rebuild: number; // for a change request: the generations its revision evolves again once it settles
  // The undo while it can work (the window ends at `until`, an ISO time); otherwise why not.
  undo: { until: string } | { refusal: string };
}

/** The reviewer's own decision on a generation, and whether it can be undone now; null when there is none. */
export async function undoableDecision(db: Db, reviewId: string, reviewerId: string, now = new Date()): Promise<UndoableDecision | null> {
  return db.$transaction(async (tx) => {
    const review = await tx.review.findUnique({ where: { id: reviewId }, include: { generation: { include: { lineage: { select: { name: true } } } } } });
    if (!review || review.reviewerId !== reviewerId) return null;
    const plan = await planUndo(tx, review, now);
    const g = review.generation;
    const setAside = review.decision === 'approve' ? [] : (await setAsideBy(tx, review)).map(({ id, number }) => ({ id, number }));
    const until = new Date(review.createdAt.getTime() + UNDO_WINDOW_MS).toISOString();
    return {
      reviewId: review.id,
      generationId: g.id,
      decision: review.decision as Decision,
      lineageName: g.lineage.name,
      number: g.number,
      state: g.state,
      setAside,
      rebuild: review.decision === 'request-changes' ? rebuildCount(setAside) : 0,
      undo: plan.refusal === null ? { until } : { refusal: plan.refusal },
    };
  });
}

export interface UndoneDecision {
  decision: Decision;
  restored: SetAside[];
}

/** The reviewer's undo that is the newest thing to have happened to the generation, or null. */
export async function undoneDecision(db: Db, generationId: string, reviewerId: string): Promise<UndoneDecision | null> {
  const newest = await db.auditEvent.findFirst({ where: { subjectType: 'generation', subjectId: generationId }, orderBy: { createdAt: 'desc' } });
  const decision = newest?.action.replace(/^generation\.undo-/, '');
  if (!newest || newest.actorId !== reviewerId || decision === newest.action) return null;
  const ids = (JSON.parse(newest.after ?? '{}') as { restored?: string[] }).restored ?? [];
  const restored = await db.generation.findMany({ where: { id: { in: ids } }, orderBy: { number: 'asc' }, select: { id: true, number: true } });
  return { decision: decision as Decision, restored };
}
