// "Request changes": a reviewer's comment goes back to Loop 2 as the modifier's feedback. The
// generation keeps its approved plan and parent; new attempts are added after the earlier ones.
// The request superseded the generations built on the version being replaced (lib/review/decide.ts);
// when the revision settles on its new version, the lineage is evolved again from it by as many
// generations as were superseded, queued in the same transaction as the settle.
import type { Generation } from '../db/index.ts';
import { planSchema } from './plan-schema.ts';
import type { EvolutionContext } from './context.ts';
import { enqueueEvolution } from './jobs.ts';
import { loadLineage } from './lineage.ts';
import { modifyLoop, settlementOf } from './modify-loop.ts';
import { moveGeneration, type MoveData } from './move.ts';
import { parentFor } from './parent.ts';
import { GenerationState } from '../states/index.ts';

export async function reviseGeneration(ctx: EvolutionContext, generationId: string, comment: string, rebuild = 0): Promise<Generation> {
  const { db } = ctx;
  const generation = await db.generation.findUniqueOrThrow({ where: { id: generationId } });
  const round = await db.planRound.findFirst({ where: { generationId, approved: true }, orderBy: { round: 'desc' } });
  if (!round) throw new Error(`generation ${generationId} has no approved plan to revise`);
  const lineage = await loadLineage(db, generation.lineageId);
  const parent = await parentFor(db, generation.parentVersionId, generation.number - 1, ctx.synthesiser);
  let current: Generation = generation;
  const settle = async (state: GenerationState, data: MoveData = {}) =>
    (current = await moveGeneration(db, current, state, data, {
      action: 'generation.revise',
      detail: { comment },
      // The superseded generations are evolved again, now from the revised version.
      then: async (tx, moved) => {
        if (moved.state !== GenerationState.awaitingReview || rebuild === 0) return;
        await enqueueEvolution(tx, { lineageId: moved.lineageId, generations: Math.min(rebuild, 100) }, { dedupeKey: `rebuild:${moved.id}:${moved.revision}` });
      },
    }));
  await settle(GenerationState.modifying);
  ctx.progress(`revising generation ${generation.number}: ${comment.split('\n')[0]}`);
  const feedback = [`A reviewer requested changes: ${comment}`];
  try {
    const modified = await modifyLoop(ctx, lineage, generation, parent, planSchema.parse(JSON.parse(round.plan)), feedback);
    const { state, ...data } = settlementOf(modified, 'no valid revision');
    return await settle(state, data);
  } catch (err) {
    await settle(GenerationState.failed, { error: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}
