// Loop 1 across axes: a generation plans along the policy's axis; when the proposer finds that
// axis exhausted at this parent, a mixed policy moves on to its next axis (the generation's axis
// follows), and a generation whose every axis is exhausted settles as exhausted.
import type { Generation } from '../db/index.ts';
import type { Axis } from '../sequence/index.ts';
import type { Plan } from '../synth/index.ts';
import type { EvolutionContext } from './context.ts';
import { exhaustionMessage, recordExhausted } from './exhaustion.ts';
import { recordGenerationAxis } from './generation-writer.ts';
import type { LoadedLineage } from './lineage.ts';
import type { GenerationParent } from './parent.ts';
import { planLoop } from './plan-loop.ts';

export type AxesOutcome =
  { kind: 'planned'; plan: Plan; generation: Generation } | { kind: 'no-plan'; reasons: string[] } | { kind: 'exhausted'; message: string };

export async function planAlongAxes(
  ctx: EvolutionContext,
  lineage: LoadedLineage,
  generation: Generation,
  parent: GenerationParent,
  axes: Axis[],
): Promise<AxesOutcome> {
  const exhausted: Axis[] = [];
  const reasons: string[] = [];
  let current = generation;
  for (const axis of axes) {
    if (current.axis !== axis) {
      current = await recordGenerationAxis(ctx.db, generation.id, axis);
      ctx.progress(`  trying the ${axis} axis instead`);
    }
    const planned = await planLoop(ctx, lineage, current, parent, axis);
    if (planned.plan) return { kind: 'planned', plan: planned.plan, generation: current };
    if (planned.exhausted === undefined) return { kind: 'no-plan', reasons: planned.reasons };
    await recordExhausted(ctx.db, lineage.row.id, axis, { generation: generation.number, parentVersionId: parent.versionId, reason: planned.exhausted });
    exhausted.push(axis);
    reasons.push(planned.exhausted);
  }
  return { kind: 'exhausted', message: exhaustionMessage(exhausted, generation.number, reasons) };
}
