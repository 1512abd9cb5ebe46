// Loop 1: the proposer plans a sequence edit along the generation's axis; the plan reviewer
// (the synthesiser's review, the executable plan-rubric items, the edit's shape and the
// monotone-difficulty gate) sends it back with reasons until it passes or the rounds run out.
// Every round is stored. A proposer that finds no edit raising D reports the axis exhausted.
import type { Generation } from '../db/index.ts';
import { isKnown } from '../difficulty/index.ts';
import { activeRubric, reviewPlanAgainstRubric, rubricVersionLabel, toItemView } from '../rubric/index.ts';
import { checkEdit } from '../sequence/index.ts';
import type { Axis } from '../sequence/index.ts';
import { AxisExhausted, InvalidAnswer, ProposalRefused, type Plan, type PlanReview, type PlanReviewItem } from '../synth/index.ts';
import type { EvolutionContext } from './context.ts';
import { lineagePriorsTable, measure, monotoneViolations } from './difficulty-gate.ts';
import type { LoadedLineage } from './lineage.ts';
import type { GenerationParent } from './parent.ts';
import { deriveSeed } from './seeds.ts';

export type PlanOutcome = { plan: Plan } | { plan: null; reasons: string[]; exhausted?: string };

export async function planLoop(
  ctx: EvolutionContext,
  lineage: LoadedLineage,
  generation: Generation,
  parent: GenerationParent,
  axis: Axis,
): Promise<PlanOutcome> {
  const { settings } = lineage;
  const items = await activeRubric(ctx.db, { lineageId: lineage.row.id, appliesTo: 'plan' });
  const rubric = items.map(toItemView);
  const rubricVersion = rubricVersionLabel(items);
  const margin = settings.loops.difficultyMargin;
  const table = await lineagePriorsTable(ctx.db, lineage.row);
  const parentDifficulty = await measure(ctx, parent.sequence, table);
  let feedback: string[] = [];

  for (let round = 1; round <= settings.loops.maxPlanRounds; round++) {
    const seed = deriveSeed(settings.seed, generation.number, 'plan', round);
    let plan: Plan;
    try {
      plan = await ctx.synthesiser.propose({ parent, axis, effort: settings.effort, seed, rubric, feedback, minGain: margin });
    } catch (err) {
      if (err instanceof InvalidAnswer) {
        // A malformed answer is a plan the reviewer sends back, not the end of the lineage.
        feedback = await sendBack(ctx, generation.id, round, rubricVersion, { invalidAnswer: err.message }, err.problems);
        continue;
      }
      // Another round would be refused the same way.
      if (!(err instanceof ProposalRefused)) throw err;
      ctx.progress(`  plan round ${round}: the proposer ${err instanceof AxisExhausted ? 'found the axis exhausted' : 'refused'} (${err.message})`);
      if (err instanceof AxisExhausted) return { plan: null, reasons: [err.message], exhausted: err.message };
      return { plan: null, reasons: [`the proposer refused: ${err.message}`] };
    }
    let review: PlanReview;
    try {
      review = await ctx.synthesiser.reviewPlan({ parent, plan, rubric });
    } catch (err) {
      if (!(err instanceof InvalidAnswer)) throw err;
      feedback = await sendBack(ctx, generation.id, round, rubricVersion, plan, [`the plan reviewer's answer was invalid: ${err.problems.join('; ')}`]);
      continue;
    }
    const rubricItems = await reviewPlanAgainstRubric({ sandbox: ctx.sandbox, plan, parentSequence: parent.sequence, items: rubric });
    // The edit's shape and the rise in difficulty are invariants of the method, whoever proposed
    // and reviewed the plan.
    const violations = checkEdit(parent.sequence, plan.child, axis, settings.effort);
    const childDifficulty = await measure(ctx, plan.child, table);
    violations.push(...monotoneViolations(parentDifficulty, childDifficulty, axis, margin));
    const failedItems = rubricItems.filter((i) => i.verdict === 'failed');
    const reasons = [...violations, ...review.reasons, ...failedItems.map((i) => `${i.itemId}: ${i.reason}`)];
    const approved = review.approved && violations.length === 0 && failedItems.length === 0;
    // An unknown D is stored as null, never as the described steps' part; the gain is over the
    // described steps, which is what the gate compared (difficulty-gate.ts).
    const known = (d: typeof parentDifficulty) => (isKnown(d) ? d.total : null);
    const gain = childDifficulty.total - parentDifficulty.total;
    const difficulty = { parent: known(parentDifficulty), child: known(childDifficulty), gain, margin, priors: table.version };
    await ctx.db.planRound.create({
      data: {
        generationId: generation.id,
        round,
        plan: JSON.stringify(plan),
        approved,
        review: JSON.stringify({ reasons, violations, items: mergeItems(review.items, rubricItems), difficulty }),
        rubricVersion,
      },
    });
    ctx.progress(`  plan round ${round}: ${approved ? 'approved' : `sent back (${reasons.join('; ')})`}`);
    if (approved) return { plan };
    feedback = reasons;
  }
  return { plan: null, reasons: feedback };
}

// A round whose answer could not be read is stored like any sent-back plan, with what was wrong.
async function sendBack(
  ctx: EvolutionContext,
  generationId: string,
  round: number,
  rubricVersion: string,
  plan: unknown,
  reasons: string[],
): Promise<string[]> {
  await ctx.db.planRound.create({
    data: {
      generationId,
      round,
      plan: JSON.stringify(plan),
      approved: false,
      review: JSON.stringify({ reasons, violations: reasons, items: [] }),
      rubricVersion,
    },
  });
  ctx.progress(`  plan round ${round}: sent back (${reasons.join('; ')})`);
  return reasons;
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
