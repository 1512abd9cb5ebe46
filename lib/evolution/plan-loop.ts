// Loop 1: the proposer plans a sequence edit along the generation's axis; the plan reviewer
// (the synthesiser's review plus the executable plan-rubric items) sends it back with reasons
// until it passes or the rounds run out. Every round is stored.
import type { Generation } from '../db/generated/client.ts';
import { activeRubric, reviewPlanAgainstRubric, rubricVersionLabel, toItemView } from '../rubric/index.ts';
import { checkEdit } from '../sequence/index.ts';
import type { Axis } from '../sequence/types.ts';
import { ProposalRefused, type Plan, type PlanReviewItem } from '../synth/types.ts';
import type { EvolutionContext } from './context.ts';
import type { LoadedLineage } from './lineage.ts';
import type { GenerationParent } from './parent.ts';
import { deriveSeed } from './seeds.ts';

export async function planLoop(
  ctx: EvolutionContext,
  lineage: LoadedLineage,
  generation: Generation,
  parent: GenerationParent,
  axis: Axis,
): Promise<{ plan: Plan } | { plan: null; reasons: string[] }> {
  const { settings } = lineage;
  const items = await activeRubric(ctx.db, { lineageId: lineage.row.id, appliesTo: 'plan' });
  const rubric = items.map(toItemView);
  const rubricVersion = rubricVersionLabel(items);
  let feedback: string[] = [];

  for (let round = 1; round <= settings.loops.maxPlanRounds; round++) {
    const seed = deriveSeed(settings.seed, generation.number, 'plan', round);
    let plan: Plan;
    try {
      plan = await ctx.synthesiser.propose({ parent, axis, effort: settings.effort, seed, rubric, feedback });
    } catch (err) {
      // Another round would be refused the same way.
      if (!(err instanceof ProposalRefused)) throw err;
      ctx.progress(`  plan round ${round}: the proposer refused (${err.message})`);
      return { plan: null, reasons: [`the proposer refused: ${err.message}`] };
    }
    const review = await ctx.synthesiser.reviewPlan({ parent, plan, rubric });
    const rubricItems = await reviewPlanAgainstRubric({ sandbox: ctx.sandbox, plan, parentSequence: parent.sequence, items: rubric });
    // The edit's shape is an invariant of the method, whoever proposed and reviewed it.
    const violations = checkEdit(parent.sequence, plan.child, axis, settings.effort);
    const failedItems = rubricItems.filter((i) => i.verdict === 'failed');
    const reasons = [...violations, ...review.reasons, ...failedItems.map((i) => `${i.itemId}: ${i.reason}`)];
    const approved = review.approved && violations.length === 0 && failedItems.length === 0;
    await ctx.db.planRound.create({
      data: {
        generationId: generation.id,
        round,
        plan: JSON.stringify(plan),
        approved,
        review: JSON.stringify({ reasons, violations, items: mergeItems(review.items, rubricItems) }),
        rubricVersion,
      },
    });
    ctx.progress(`  plan round ${round}: ${approved ? 'approved' : `sent back (${reasons.join('; ')})`}`);
    if (approved) return { plan };
    feedback = reasons;
  }
  return { plan: null, reasons: feedback };
}

// An item the executable check decided overrides the reviewer's 'unjudged' for the same item.
function mergeItems(fromReviewer: PlanReviewItem[], fromChecks: PlanReviewItem[]): PlanReviewItem[] {
  const byItem = new Map(fromReviewer.map((i) => [i.itemId, i]));
  for (const item of fromChecks) {
    const earlier = byItem.get(item.itemId);
    if (!earlier || earlier.verdict === 'unjudged' || item.verdict === 'failed') byItem.set(item.itemId, item);
  }
  return [...byItem.values()];
}
