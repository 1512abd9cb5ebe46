// The plan reviewer's answer, checked for completeness (one verdict per plan rubric item, no
// unknown ids) and consistency (no approval over a failed item, no rejection without a reason).
// The mechanical edit check has the last word: a plan that breaks the axis or effort rules is
// never approved, whatever the model says.
import type { PlanReview, PlanReviewItem, RubricItemView } from '../types.ts';
import type { Interpretation } from './tool-client.ts';
import type { ToolInput } from './tools.ts';

export function planRubric(rubric: readonly RubricItemView[]): RubricItemView[] {
  return rubric.filter((item) => item.appliesTo === 'plan' || item.appliesTo === 'both');
}

export function interpretReview(input: ToolInput<'review_plan'>, planItems: RubricItemView[], mechanical: string[]): Interpretation<PlanReview> {
  const expected = new Set(planItems.map((i) => i.id));
  const problems: string[] = [];
  const judged = new Set<string>();
  for (const item of input.items) {
    if (!expected.has(item.itemId)) problems.push(`items: ${item.itemId} is not a plan rubric item of this review`);
    else if (judged.has(item.itemId)) problems.push(`items: ${item.itemId} is judged twice`);
    judged.add(item.itemId);
  }
  for (const id of expected) if (!judged.has(id)) problems.push(`items: no verdict for rubric item ${id}`);
  const failed = input.items.filter((i) => i.verdict === 'failed');
  if (input.approved && failed.length > 0) problems.push(`approved is true but items failed: ${failed.map((i) => i.itemId).join(', ')}`);
  if (!input.approved && input.reasons.length === 0) problems.push('approved is false but reasons is empty: say what must change');
  if (problems.length > 0) return { ok: false, problems };

  const items: PlanReviewItem[] = input.items.map((i) => ({ itemId: i.itemId, verdict: i.verdict, reason: i.reason }));
  const approved = input.approved && mechanical.length === 0;
  return { ok: true, value: { approved, reasons: approved ? [] : [...mechanical, ...input.reasons], items } };
}
