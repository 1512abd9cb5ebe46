'use server';
// Server actions of the missed-issue forms. Each checks the permission on the server
// (requirePermission) and lib checks it again and writes the audit entry.
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { convertMissedIssue, dismissMissedIssue, DuplicateMissedIssueError, fileMissedIssue } from '@/lib/missed-issues/index.ts';
import { enqueueBacktest } from '@/lib/rubric/index.ts';
import { failure, text, type ActionResult } from './action-result.ts';

export async function fileMissedIssueAction(generationId: string, _prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const user = await requirePermission('missed-issue.file');
  try {
    const issue = await fileMissedIssue(await requestDb(), user, generationId, {
      title: text(form, 'title') ?? '',
      description: text(form, 'description') ?? '',
      severity: text(form, 'severity') as 'low',
      validatorKind: text(form, 'validatorKind') as 'rubric',
      check: text(form, 'check'),
      question: text(form, 'question'),
    });
    revalidatePath('/missed-issues');
    return {
      ok: true,
      message: `Filed “${issue.title}”. A lead will decide whether it becomes a rubric item.`,
      href: `/missed-issues/${issue.id}`,
      id: issue.id,
    };
  } catch (err) {
    if (err instanceof DuplicateMissedIssueError)
      return { ok: false, message: `Not filed again: ${err.message}.`, fieldErrors: {}, href: `/missed-issues/${err.existing.id}` };
    return failure(err);
  }
}

// On success the lead lands on the new item, where it can be backtested and (de)activated;
// the issue page itself no longer offers the form once the issue is converted. The usual
// intent, "draft + backtest", stores the item inactive and queues its backtest at once.
export async function convertMissedIssueAction(issueId: string, _prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const user = await requirePermission('rubric.manage');
  let itemId: string;
  const intent = text(form, 'intent');
  try {
    const db = await requestDb();
    const { item } = await convertMissedIssue(db, user, issueId, {
      key: text(form, 'key'),
      title: text(form, 'title') ?? '',
      description: text(form, 'description') ?? '',
      check: text(form, 'check'),
      question: text(form, 'question'),
      scope: text(form, 'scope') as 'global',
      appliesTo: text(form, 'appliesTo') as 'environment',
      activate: intent === 'convert-activate',
    });
    itemId = item.id;
    if (intent === 'convert-backtest') await enqueueBacktest(db, user, { itemId });
  } catch (err) {
    return failure(err);
  }
  revalidatePath('/missed-issues', 'layout');
  revalidatePath('/rubric', 'layout');
  redirect(`/rubric/${itemId}`);
}

export async function dismissMissedIssueAction(issueId: string, _prev: ActionResult | null): Promise<ActionResult> {
  const user = await requirePermission('rubric.manage');
  try {
    await dismissMissedIssue(await requestDb(), user, issueId);
    revalidatePath('/missed-issues', 'layout');
    return { ok: true, message: 'Dismissed.' };
  } catch (err) {
    return failure(err);
  }
}
