// Axis exhaustion: when the proposer finds no legal edit of the parent on an axis
// that raises D by the margin, the axis is exhausted *at that parent*. A fixed-axis lineage then
// stops; a round-robin or weighted lineage skips the axis until its parent changes (a length
// edit, say, adds a step whose scenario and skill can be made rarer again).
import type { Db, Lineage } from '../db/index.ts';
import { chooseAxis, AXES, type Axis, type AxisPolicy } from '../sequence/index.ts';

export interface AxisExhaustion {
  generation: number; // the generation that found the axis exhausted
  parentVersionId: string; // the version no edit on the axis could make harder
  reason: string;
}

export type ExhaustedAxes = Partial<Record<Axis, AxisExhaustion>>;

export function readExhaustedAxes(row: Pick<Lineage, 'exhaustedAxes'>): ExhaustedAxes {
  return JSON.parse(row.exhaustedAxes || '{}') as ExhaustedAxes;
}

/** The axes exhausted at this parent; exhaustion recorded at an earlier parent no longer holds. */
export function exhaustedAt(row: Pick<Lineage, 'exhaustedAxes'>, parentVersionId: string): Set<Axis> {
  const recorded = readExhaustedAxes(row);
  return new Set(AXES.filter((axis) => recorded[axis]?.parentVersionId === parentVersionId));
}

/**
 * The axes to try for a generation, in order: the policy's choice first, then (for mixed
 * policies) the other axes it can choose, leaving out those exhausted at the current parent.
 * Empty when every axis the policy can choose is exhausted.
 */
export function axesToTry(policy: AxisPolicy, generation: number, seed: number, exhausted: Set<Axis>): Axis[] {
  const chosen = chooseAxis(policy, generation, seed);
  const possible = policy.kind === 'fixed' ? [chosen] : policy.kind === 'weighted' ? AXES.filter((a) => policy.weights[a] > 0) : AXES;
  const order = [chosen, ...possible.filter((a) => a !== chosen)];
  return order.filter((axis) => !exhausted.has(axis));
}

export async function recordExhausted(db: Db, lineageId: string, axis: Axis, exhaustion: AxisExhaustion): Promise<void> {
  const row = await db.lineage.findUniqueOrThrow({ where: { id: lineageId }, select: { exhaustedAxes: true } });
  const recorded = { ...readExhaustedAxes(row), [axis]: exhaustion };
  await db.lineage.update({ where: { id: lineageId }, data: { exhaustedAxes: JSON.stringify(recorded) } });
}

export function exhaustionMessage(axes: Axis[], generation: number, reasons: string[]): string {
  return `axis exhausted at generation ${generation}: ${axes.join(', ')} (${reasons.join('; ')})`;
}
