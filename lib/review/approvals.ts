// Approvals count per reviewer, not per click, and only on the revision being decided: a
// revised generation (a new candidate after "request changes") starts again from zero.
import type { Prisma } from '../db/generated/client.ts';

type Reader = Pick<Prisma.TransactionClient, 'review'>;

export async function approversOf(db: Reader, generationId: string, revision: number): Promise<string[]> {
  const rows = await db.review.findMany({
    where: { generationId, revision, decision: 'approve' },
    select: { reviewerId: true },
    distinct: ['reviewerId'],
  });
  return rows.map((row) => row.reviewerId);
}
