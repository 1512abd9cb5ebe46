// The review queue: generations awaiting review, the longest-waiting first. A generation's
// updatedAt is when it last changed state, i.e. when it started waiting.
import type { Db } from '../db/client.ts';
import { GenerationState } from '../evolution/states.ts';

export const QUEUE_PAGE_SIZE = 50;

export interface QueueItem {
  generationId: string;
  lineageId: string;
  lineageName: string;
  number: number;
  axis: string;
  effort: string;
  revision: number;
  waitingSince: string;
  approvals: number;
  approvalsRequired: number;
}

export interface QueuePage {
  items: QueueItem[];
  total: number;
  page: number; // 1-based
  pageSize: number;
}

export async function reviewQueue(db: Db, options: { page?: number; pageSize?: number } = {}): Promise<QueuePage> {
  const pageSize = Math.min(Math.max(options.pageSize ?? QUEUE_PAGE_SIZE, 1), 200);
  const page = Math.max(options.page ?? 1, 1);
  const where = { state: GenerationState.awaitingReview };
  const [total, rows] = await Promise.all([
    db.generation.count({ where }),
    db.generation.findMany({
      where,
      orderBy: [{ updatedAt: 'asc' }, { id: 'asc' }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      include: { lineage: { select: { name: true, approvalsRequired: true } } },
    }),
  ]);
  const approvals = await approvalCounts(db, rows.map((r) => ({ id: r.id, revision: r.revision })));
  const items = rows.map((row) => ({
    generationId: row.id,
    lineageId: row.lineageId,
    lineageName: row.lineage.name,
    number: row.number,
    axis: row.axis,
    effort: row.effort,
    revision: row.revision,
    waitingSince: row.updatedAt.toISOString(),
    approvals: approvals.get(row.id) ?? 0,
    approvalsRequired: row.lineage.approvalsRequired,
  }));
  return { items, total, page, pageSize };
}

// Distinct approving reviewers on each generation's current revision, in one query for the page.
async function approvalCounts(db: Db, generations: { id: string; revision: number }[]): Promise<Map<string, number>> {
  if (generations.length === 0) return new Map();
  const rows = await db.review.findMany({
    where: { decision: 'approve', OR: generations.map((g) => ({ generationId: g.id, revision: g.revision })) },
    select: { generationId: true, reviewerId: true },
    distinct: ['generationId', 'reviewerId'],
  });
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.generationId, (counts.get(row.generationId) ?? 0) + 1);
  return counts;
}
