// Approvals count per reviewer, not per click, and only on the revision being decided: a
// revised generation (a new candidate after "request changes") starts again from zero.
import type { Prisma } from '../db/index.ts';
import { GenerationState } from '../states/index.ts';

type Reader = Pick<Prisma.TransactionClient, 'review'>;

export async function approversOf(db: Reader, generationId: string, revision: number): Promise<string[]> {
  const rows = await db.review.findMany({
    where: { generationId, revision, decision: 'approve' },
    select: { reviewerId: true },
    distinct: ['reviewerId'],
  });
  return rows.map((row) => row.reviewerId);
}

/**
 * The approvals to show beside a generation. While it awaits review: those on its current
 * revision. Once decided, the revision moved on (the decision bumped it, a release bumps it
 * again), so the count is of the revision the last decision was made on — an approved or
 * released generation shows the approvals that approved it, not "0 / 1".
 */
export async function shownApprovers(db: Reader, generation: { id: string; state: string; revision: number }): Promise<string[]> {
  if (generation.state === GenerationState.awaitingReview) return approversOf(db, generation.id, generation.revision);
  const last = await db.review.findFirst({
    where: { generationId: generation.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { revision: true },
  });
  return last ? approversOf(db, generation.id, last.revision) : [];
}
