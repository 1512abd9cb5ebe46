// The backtest panel's data as JSON: whether the item catches the generations its missed
// issues were filed on (the headlines), the newest backtest job and the item's findings.
import type { Db } from '../db/index.ts';
import { latestBacktestJob } from './backtest-job.ts';
import { backtestOrigins, listBacktestFindings, type FindingView } from './backtest.ts';
import { backtestHeadlines, type BacktestHeadline } from './backtest-headline.ts';
import { RubricItemNotFoundError } from './catalogue.ts';

type Jsonified<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

export interface BacktestView {
  headlines: BacktestHeadline[];
  job: { id: string; state: string; lastError: string | null; createdAt: string; finishedAt: string | null } | null;
  findings: Jsonified<FindingView>[];
}

export async function backtestView(db: Db, itemId: string): Promise<{ headlines: BacktestHeadline[]; job: unknown; findings: FindingView[] }> {
  const item = await db.rubricItem.findUnique({ where: { id: itemId }, select: { key: true } });
  if (!item) throw new RubricItemNotFoundError(itemId);
  const [job, findings, origins] = await Promise.all([latestBacktestJob(db, itemId), listBacktestFindings(db, itemId), backtestOrigins(db, item)]);
  return { headlines: backtestHeadlines(origins, findings), job, findings };
}
