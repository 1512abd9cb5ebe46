// One generation: choose the axis, run Loop 1 (plan) and Loop 2 (modify + validate), and settle
// the generation as awaiting review or failed — never lost. A lineage evolves generation by
// generation from the newest settled one.
import type { Generation } from '../db/index.ts';
import { syncBuiltinRubric } from '../rubric/index.ts';
import { chooseAxis } from '../sequence/index.ts';
import type { EvolutionContext } from './context.ts';
import { axesToTry, exhaustedAt } from './exhaustion.ts';
import { createGeneration } from './generation-writer.ts';
import { loadLineage } from './lineage.ts';
import { modifyLoop, settlementOf } from './modify-loop.ts';
import { currentParent } from './parent.ts';
import { moveGeneration, type MoveData } from './move.ts';
import { planAlongAxes } from './plan-axes.ts';
import { AttemptState, GenerationState, IN_PROGRESS_STATES, LineageStatus } from '../states/index.ts';
import { lineageStop, type LineageStop } from './stop.ts';

// A lineage that keeps failing is stalled rather than burning sandbox time forever.
const MAX_CONSECUTIVE_FAILURES = 3;

export async function evolveGeneration(ctx: EvolutionContext, lineageId: string): Promise<Generation> {
  const { db } = ctx;
  // The shipped rubric items are data in the database; a new release's items take effect here.
  await syncBuiltinRubric(db);
  const lineage = await loadLineage(db, lineageId);
  const parent = await currentParent(db, lineage, ctx.synthesiser);
  const number = parent.number + 1;
  const axes = axesToTry(lineage.settings.axisPolicy, number, lineage.settings.seed, exhaustedAt(lineage.row, parent.versionId));
  if (axes.length === 0) {
    // Already found exhausted at this parent: the generation that found it is the answer.
    const found = await db.generation.findFirst({
      where: { lineageId, parentVersionId: parent.versionId, state: GenerationState.exhausted },
      orderBy: { createdAt: 'desc' },
    });
    if (found) return found;
  }
  const axis = axes[0] ?? chooseAxis(lineage.settings.axisPolicy, number, lineage.settings.seed);
  const generation = await createGeneration(db, { lineageId, number, parentVersionId: parent.versionId, axis, effort: lineage.settings.effort });
  ctx.progress(`generation ${number} (${axis}, ${lineage.settings.effort}) from ${parent.versionId.slice(0, 12)}`);
  let current: Generation = generation;
  const settle = async (state: GenerationState, data: MoveData = {}) => (current = await moveGeneration(db, current, state, data));
  try {
    const planned = await planAlongAxes(ctx, lineage, generation, parent, axes);
    if (planned.kind === 'exhausted') return await settle(GenerationState.exhausted, { error: planned.message });
    if (planned.kind === 'no-plan') return await settle(GenerationState.failed, { error: `no plan approved: ${planned.reasons.join('; ')}` });
    await settle(GenerationState.modifying);
    const modified = await modifyLoop(ctx, lineage, planned.generation, parent, planned.plan);
    const { state, ...data } = settlementOf(modified, 'no valid candidate');
    return await settle(state, data);
  } catch (err) {
    await settle(GenerationState.failed, { error: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}

export interface EvolveLineageResult {
  validated: Generation[];
  failed: Generation[];
  stalled: boolean;
  exhausted: string | null; // "axis exhausted at generation N: …" when no axis could be made harder
  // A generation whose candidate reached no verdict (see settlementOf): evolution stops there and
  // the lineage waits for a person, rather than evolving past a generation nobody could judge.
  needsAttention: Generation | null;
  buildFailed: Generation | null; // the generation whose image did not build (not retried)
  // The lineage waits for a person (a held generation, a revision running): nothing was evolved
  // from then on, and this says why and what to do.
  stopped: LineageStop | null;
}

// Evolves until `count` more generations validate, or the lineage stalls, is exhausted, or one
// generation needs attention.
export async function evolveLineage(ctx: EvolutionContext, lineageId: string, count: number, signal?: AbortSignal): Promise<EvolveLineageResult> {
  const { db } = ctx;
  const result: EvolveLineageResult = { validated: [], failed: [], stalled: false, exhausted: null, needsAttention: null, buildFailed: null, stopped: null };
  result.stopped = await lineageStop(db, lineageId);
  if (result.stopped) {
    ctx.progress(result.stopped.message);
    return result;
  }
  await abandonInterrupted(ctx, lineageId);
  await db.lineage.update({ where: { id: lineageId }, data: { status: LineageStatus.evolving } });
  let consecutiveFailures = 0;
  try {
    while (result.validated.length < count && !signal?.aborted) {
      // A reviewer may have sent a generation back since the last one.
      result.stopped = await lineageStop(db, lineageId);
      if (result.stopped) break;
      const generation = await evolveGeneration(ctx, lineageId);
      if (generation.state === GenerationState.needsAttention) {
        result.needsAttention = generation;
        break;
      }
      if (generation.state === GenerationState.exhausted) {
        result.exhausted = generation.error;
        break;
      }
      if (generation.state === GenerationState.failed) {
        result.failed.push(generation);
        // An image that does not build fails every generation the same way: stop at the first.
        if (await imageDidNotBuild(ctx, generation)) {
          result.buildFailed = generation;
          result.stalled = true;
          break;
        }
        if (++consecutiveFailures >= MAX_CONSECUTIVE_FAILURES) {
          result.stalled = true;
          break;
        }
      } else {
        result.validated.push(generation);
        consecutiveFailures = 0;
      }
    }
  } finally {
    const status = result.needsAttention
      ? LineageStatus.needsAttention
      : result.stalled
        ? LineageStatus.stalled
        : result.exhausted
          ? LineageStatus.exhausted
          : LineageStatus.idle;
    await db.lineage.update({ where: { id: lineageId }, data: { status } });
  }
  return result;
}

async function imageDidNotBuild(ctx: EvolutionContext, generation: Generation): Promise<boolean> {
  return (await ctx.db.attempt.count({ where: { generationId: generation.id, state: AttemptState.buildFailed } })) > 0;
}

// A generation left mid-loop by a process that died is recorded as failed, with why.
async function abandonInterrupted(ctx: EvolutionContext, lineageId: string): Promise<void> {
  const interrupted = await ctx.db.generation.findMany({ where: { lineageId, state: { in: [...IN_PROGRESS_STATES] } } });
  for (const generation of interrupted) {
    await moveGeneration(ctx.db, generation, GenerationState.failed, { error: 'interrupted: the process evolving it stopped before it settled' });
  }
  if (interrupted.length > 0) ctx.progress(`marked ${interrupted.length} interrupted generation(s) as failed`);
}
