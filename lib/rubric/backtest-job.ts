// The backtest as a queued job (kind 'backtest'): the /rubric page enqueues it, a worker runs
// lib/rubric/backtest.ts. Starting one is a lead's decision and is audited.
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { enqueue } from '../queue/index.ts';
import type { Job } from '../queue/index.ts';
import { BACKTESTABLE_STATES } from '../states/index.ts';
import { DEFAULT_BACKTEST_STATES } from './backtest.ts';
import { assertCan, type Actor } from '../auth/index.ts';
import { auditDecision } from '../audit/index.ts';
import { RubricItemNotFoundError } from './catalogue.ts';

export const BACKTEST_JOB = 'backtest';

export const BACKTEST_STATES = BACKTESTABLE_STATES;

export const backtestJobPayload = z.object({
  itemId: z.string().min(1),
  states: z
    .array(z.enum(BACKTEST_STATES))
    .min(1)
    .default([...DEFAULT_BACKTEST_STATES]),
});

export type BacktestJobPayload = z.input<typeof backtestJobPayload>;

// What a lead asks for over HTTP: the states to look at (the item is in the path); none, the default.
export const backtestRequestSchema = backtestJobPayload.pick({ states: true }).optional();

export async function enqueueBacktest(db: Db, actor: Actor, payload: BacktestJobPayload): Promise<Job> {
  assertCan(actor, 'rubric.manage');
  const parsed = backtestJobPayload.parse(payload);
  const item = await db.rubricItem.findUnique({ where: { id: parsed.itemId } });
  if (!item) throw new RubricItemNotFoundError(parsed.itemId);
  return db.$transaction(async (tx) => {
    // A lead is waiting on the page for it: ahead of background evolution.
    const job = await enqueue(tx, BACKTEST_JOB, parsed, { priority: 5, maxAttempts: 2 });
    await auditDecision(tx, actor, 'rubric.backtest', { type: 'rubric-item', id: item.id }, null, { jobId: job.id, states: parsed.states });
    return job;
  });
}

export interface BacktestJobStatus {
  id: string;
  state: string;
  lastError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

// The newest backtest job of an item, for the page to poll while it runs.
export async function latestBacktestJob(db: Db, itemId: string): Promise<BacktestJobStatus | null> {
  const jobs = await db.job.findMany({ where: { kind: BACKTEST_JOB }, orderBy: { createdAt: 'desc' }, take: 200 });
  const job = jobs.find((j) => (JSON.parse(j.payload) as { itemId?: string }).itemId === itemId);
  return job ? { id: job.id, state: job.state, lastError: job.lastError, createdAt: job.createdAt, finishedAt: job.finishedAt } : null;
}
