// The review queue: generations awaiting review, the longest-waiting first. A generation's
// updatedAt is when it last changed state, i.e. when it started waiting.
import type { Db } from '../db/index.ts';
import type { SortDirection } from '../dashboard/index.ts';
import { GenerationState } from '../states/index.ts';

export const QUEUE_PAGE_SIZE = 50;

// What the queue can be ordered by, each with the direction it starts in: the longest-waiting first.
export const QUEUE_SORTS = { waiting: 'asc', lineage: 'asc', generation: 'asc' } as const satisfies Record<string, SortDirection>;
export type QueueSort = keyof typeof QUEUE_SORTS;
export const QUEUE_DEFAULT_SORT = { key: 'waiting', dir: QUEUE_SORTS.waiting } as const satisfies { key: QueueSort; dir: SortDirection };

function queueOrder(sort: { key: QueueSort; dir: SortDirection }) {
  const { dir } = sort;
  // The id last: pages of a tie stay disjoint.
  if (sort.key === 'lineage') return [{ lineage: { name: dir } }, { number: dir }, { id: dir }];
  if (sort.key === 'generation') return [{ number: dir }, { updatedAt: 'asc' as const }, { id: dir }];
  return [{ updatedAt: dir }, { id: dir }];
}

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
  // Set when the generation was sent back before: it is a revision answering this request.
  revisedAfter: { comment: string; reviewerEmail: string; at: string } | null;
}

export interface QueuePage {
  items: QueueItem[];
  total: number;
  page: number; // 1-based
  pageSize: number;
}

export async function reviewQueue(
  db: Db,
  options: { page?: number; pageSize?: number; sort?: { key: QueueSort; dir: SortDirection } } = {},
): Promise<QueuePage> {
  const pageSize = Math.min(Math.max(options.pageSize ?? QUEUE_PAGE_SIZE, 1), 200);
  const page = Math.max(options.page ?? 1, 1);
  const where = { state: GenerationState.awaitingReview };
  const [total, rows] = await Promise.all([
    db.generation.count({ where }),
    db.generation.findMany({
      where,
      orderBy: queueOrder(options.sort ?? QUEUE_DEFAULT_SORT),
      skip: (page - 1) * pageSize,
      take: pageSize,
      include: { lineage: { select: { name: true, approvalsRequired: true } } },
    }),
  ]);
  const [approvals, requests] = await Promise.all([
    approvalCounts(
      db,
      rows.map((r) => ({ id: r.id, revision: r.revision })),
    ),
    lastChangeRequests(
      db,
      rows.map((r) => r.id),
    ),
  ]);
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
    approvalsRequired: Math.max(1, row.lineage.approvalsRequired),
    revisedAfter: requests.get(row.id) ?? null,
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

// The newest "request changes" on each generation: what its current revision was asked to fix.
async function lastChangeRequests(db: Db, generationIds: string[]): Promise<Map<string, QueueItem['revisedAfter']>> {
  if (generationIds.length === 0) return new Map();
  const rows = await db.review.findMany({
    where: { decision: 'request-changes', generationId: { in: generationIds } },
    orderBy: { createdAt: 'asc' },
    select: { generationId: true, comment: true, createdAt: true, reviewerId: true },
  });
  const emails = new Map(
    (await db.user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.reviewerId))] } }, select: { id: true, email: true } })).map((u) => [
      u.id,
      u.email,
    ]),
  );
  return new Map(
    rows.map((r) => [r.generationId, { comment: r.comment, reviewerEmail: emails.get(r.reviewerId) ?? 'a deleted user', at: r.createdAt.toISOString() }]),
  );
}

export interface NextInQueue {
  generationId: string;
  lineageName: string;
  number: number;
}

/**
 * The generation a reviewer should open next: the longest-waiting one awaiting review, other
 * than `except`, that they have not already approved at its current revision (it waits for
 * another reviewer, not for them).
 */
export async function nextForReviewer(db: Db, reviewerId: string, except?: string): Promise<NextInQueue | null> {
  const candidates = await db.generation.findMany({
    where: { state: GenerationState.awaitingReview, ...(except ? { id: { not: except } } : {}) },
    orderBy: [{ updatedAt: 'asc' }, { id: 'asc' }],
    take: 50,
    select: { id: true, number: true, revision: true, lineage: { select: { name: true } } },
  });
  if (candidates.length === 0) return null;
  const mine = await db.review.findMany({
    where: { reviewerId, decision: 'approve', OR: candidates.map((c) => ({ generationId: c.id, revision: c.revision })) },
    select: { generationId: true },
  });
  const approvedByMe = new Set(mine.map((r) => r.generationId));
  const next = candidates.find((c) => !approvedByMe.has(c.id));
  return next ? { generationId: next.id, lineageName: next.lineage.name, number: next.number } : null;
}
