'use server';
// Server actions of the /rubric pages: activation, backtests, sending a violation back to
// review. Each checks 'rubric.manage' on the server; lib checks again and audits.
import { revalidatePath } from 'next/cache';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { failure, type ActionResult } from '@/app/missed-issues/action-result.ts';
import { sendFindingToReview } from '@/lib/missed-issues/index.ts';
import { BACKTEST_STATES, enqueueBacktest, setItemActive } from '@/lib/rubric/index.ts';

export async function setItemActiveAction(itemId: string, active: boolean, _prev: ActionResult | null): Promise<ActionResult> {
  const user = await requirePermission('rubric.manage');
  try {
    const item = await setItemActive(await requestDb(), user, itemId, active);
    revalidatePath('/rubric', 'layout');
    return { ok: true, message: `${item.key}@${item.version} is ${item.active ? 'active: later generations are judged by it' : 'inactive'}.` };
  } catch (err) {
    return failure(err);
  }
}

export async function startBacktestAction(itemId: string, _prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const user = await requirePermission('rubric.manage');
  const states = form.getAll('states').filter((s): s is (typeof BACKTEST_STATES)[number] => BACKTEST_STATES.includes(s as never));
  try {
    const job = await enqueueBacktest(await requestDb(), user, { itemId, states });
    return { ok: true, message: `Backtest queued (job ${job.id}); findings appear below when a worker has run it.` };
  } catch (err) {
    return failure(err);
  }
}

export async function sendBackAction(findingId: string, _prev: ActionResult | null): Promise<ActionResult> {
  const user = await requirePermission('rubric.manage');
  try {
    const { generation, reopened } = await sendFindingToReview(await requestDb(), user, findingId);
    revalidatePath('/rubric', 'layout');
    return {
      ok: true,
      message: reopened
        ? `Generation ${generation.number} re-opened: it is awaiting review again.`
        : `Generation ${generation.number} was already awaiting review; the finding is marked.`,
    };
  } catch (err) {
    return failure(err);
  }
}
