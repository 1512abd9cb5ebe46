// The backtest panel's data as JSON: the newest backtest job and the item's findings.
import type { Db } from '../db/client.ts';
import { listBacktestFindings, type FindingView } from '../rubric/backtest.ts';
import { latestBacktestJob } from './backtest-job.ts';
import { RubricItemNotFoundError } from './rubric-items.ts';

type Jsonified<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

export interface BacktestView {
  job: { id: string; state: string; lastError: string | null; createdAt: string; finishedAt: string | null } | null;
  findings: Jsonified<FindingView>[];
}

export async function backtestView(db: Db, itemId: string): Promise<{ job: unknown; findings: FindingView[] }> {
  if (!(await db.rubricItem.findUnique({ where: { id: itemId }, select: { id: true } }))) throw new RubricItemNotFoundError(itemId);
  const [job, findings] = await Promise.all([latestBacktestJob(db, itemId), listBacktestFindings(db, itemId)]);
  return { job, findings };
}
