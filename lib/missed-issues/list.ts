// Missed issues for the list page and the CLI: open ones first, newest first within a state.
import type { Db, MissedIssue } from '../db/index.ts';
import { MissedIssueState, type MissedIssueFilter } from './schema.ts';

export interface MissedIssueRow extends MissedIssue {
  generation: { id: string; number: number; lineageId: string; lineageName: string; versionId: string | null };
  reporterEmail: string | null;
  rubricItem: { id: string; key: string; version: number; active: boolean } | null;
}

const STATE_ORDER: Record<string, number> = { open: 0, converted: 1, dismissed: 2 };

export const MISSED_ISSUE_LIST_LIMIT = 500;

export async function listMissedIssues(db: Db, filter: MissedIssueFilter = {}): Promise<MissedIssueRow[]> {
  const rows = await db.missedIssue.findMany({
    where: filter,
    orderBy: { createdAt: 'desc' },
    take: MISSED_ISSUE_LIST_LIMIT,
    include: { generation: { select: { id: true, number: true, lineageId: true, versionId: true, lineage: { select: { name: true } } } } },
  });
  const reporters = new Map(
    (await db.user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.reporterId))] } }, select: { id: true, email: true } })).map((u) => [
      u.id,
      u.email,
    ]),
  );
  const itemIds = rows.flatMap((r) => (r.rubricItemId ? [r.rubricItemId] : []));
  const items = new Map(
    (await db.rubricItem.findMany({ where: { id: { in: itemIds } }, select: { id: true, key: true, version: true, active: true } })).map((i) => [i.id, i]),
  );
  return rows
    .map(({ generation, ...issue }) => ({
      ...issue,
      generation: {
        id: generation.id,
        number: generation.number,
        lineageId: generation.lineageId,
        lineageName: generation.lineage.name,
        versionId: generation.versionId,
      },
      reporterEmail: reporters.get(issue.reporterId) ?? null,
      rubricItem: issue.rubricItemId ? (items.get(issue.rubricItemId) ?? null) : null,
    }))
    .sort((a, b) => (STATE_ORDER[a.state] ?? 9) - (STATE_ORDER[b.state] ?? 9) || b.createdAt.getTime() - a.createdAt.getTime());
}

export async function getMissedIssue(db: Db, id: string): Promise<MissedIssueRow | null> {
  const issue = await db.missedIssue.findUnique({ where: { id }, select: { generationId: true } });
  if (!issue) return null;
  return (await listMissedIssues(db, { generationId: issue.generationId })).find((r) => r.id === id) ?? null;
}

/** Missed issues nobody has converted or dismissed yet: the navigation's count. */
export function openMissedIssueCount(db: Db): Promise<number> {
  return db.missedIssue.count({ where: { state: MissedIssueState.open } });
}
