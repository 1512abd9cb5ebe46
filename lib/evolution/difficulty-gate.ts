// Monotone difficulty: a generation must make its environment harder. The child's D
// must exceed the parent's by more than the lineage's margin, whoever proposed the edit; a plan
// that does not is sent back with both numbers. D is measured under the same resolved priors
// (the lineage's table plus cached estimates) that the stored difficulty uses.
import { difficulty, isKnown, priorsTable, resolvePriors, type Difficulty, type ReferenceTable } from '../difficulty/index.ts';
import type { Db, Lineage } from '../db/index.ts';
import type { Axis, Sequence } from '../sequence/index.ts';
import type { EvolutionContext } from './context.ts';

/** The table the lineage measures D under: its fitted priors, or the shipped reference. */
export function lineagePriorsTable(db: Db, lineage: Pick<Lineage, 'priorsVersion'>): Promise<ReferenceTable> {
  return priorsTable(db, lineage.priorsVersion);
}

export async function measure(ctx: EvolutionContext, sequence: Sequence, table: ReferenceTable): Promise<Difficulty> {
  return difficulty(sequence, await resolvePriors(ctx.db, sequence, ctx.priorEstimator, table));
}

export function describeDifficulty(d: Pick<Difficulty, 'total' | 'length' | 'scenarioNovelty' | 'skillRarity' | 'undescribed'>): string {
  const components = `(L ${d.length}, scenario ${d.scenarioNovelty.toFixed(2)}, skill ${d.skillRarity.toFixed(2)})`;
  if (isKnown(d)) return `D ${d.total.toFixed(2)} ${components}`;
  return `D unknown (undescribed step${d.undescribed.length === 1 ? '' : 's'} ${d.undescribed.join(', ')}; the described steps have ${d.total.toFixed(2)} ${components})`;
}

/**
 * The plan rule: empty when the child is harder than the parent by more than `margin`. Opaque
 * steps are never rewritten offline, so when parent and child hold the same ones the gain is the
 * gain of the described steps, which is well defined although neither D is known; when they hold
 * different ones no gain can be measured and the edit is refused.
 */
export function monotoneViolations(parent: Difficulty, child: Difficulty, axis: Axis | 'built', margin: number): string[] {
  const sameOpaque = parent.undescribed.length === child.undescribed.length && parent.undescribed.every((id) => child.undescribed.includes(id));
  if (!sameOpaque) {
    return [
      `difficulty cannot be compared: the parent's undescribed steps are [${parent.undescribed.join(', ')}] and the child's [${child.undescribed.join(', ')}]; describe the imported task (or extract its steps) before editing it`,
    ];
  }
  const gain = child.total - parent.total;
  if (gain > margin) return [];
  const over = isKnown(parent) ? '' : ' (over the described steps; the undescribed ones are the same in both)';
  return [
    `difficulty must rise: a ${axis} edit has to raise D by more than ${margin}${over}, but the parent has ${describeDifficulty(parent)} and the child ${describeDifficulty(child)}, a change of ${gain >= 0 ? '+' : ''}${gain.toFixed(2)}`,
  ];
}
