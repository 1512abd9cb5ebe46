// Monotone difficulty (issue 16): a generation must make its environment harder. The child's D
// must exceed the parent's by more than the lineage's margin, whoever proposed the edit; a plan
// that does not is sent back with both numbers. D is measured under the same resolved priors
// (reference table plus cached estimates) that the stored difficulty uses.
import { difficulty, resolvePriors, type Difficulty } from '../difficulty/index.ts';
import type { Axis, Sequence } from '../sequence/index.ts';
import type { EvolutionContext } from './context.ts';

export async function measure(ctx: EvolutionContext, sequence: Sequence): Promise<Difficulty> {
  return difficulty(sequence, await resolvePriors(ctx.db, sequence, ctx.priorEstimator));
}

export function describeDifficulty(d: Pick<Difficulty, 'total' | 'length' | 'scenarioNovelty' | 'skillRarity'>): string {
  return `D ${d.total.toFixed(2)} (L ${d.length}, scenario ${d.scenarioNovelty.toFixed(2)}, skill ${d.skillRarity.toFixed(2)})`;
}

/** The plan rule: empty when the child is harder than the parent by more than `margin`. */
export function monotoneViolations(parent: Difficulty, child: Difficulty, axis: Axis, margin: number): string[] {
  const gain = child.total - parent.total;
  if (gain > margin) return [];
  return [
    `difficulty must rise: a ${axis} edit has to raise D by more than ${margin}, but the parent has ${describeDifficulty(parent)} and the child ${describeDifficulty(child)}, a change of ${gain >= 0 ? '+' : ''}${gain.toFixed(2)}`,
  ];
}
