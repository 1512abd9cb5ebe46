// The exits of a needs-attention generation. A candidate that met no fault but no
// verdict either is held for a person, and the lineage stops there (stop.ts) until they choose:
// - retry: validate the same candidate again with its time budgets multiplied (a re-validation
//   job; it settles as awaiting review, needs attention again, or failed);
// - discard: superseded, with the person's reason;
// - accept (a lead): on to human review without a verdict, with a written justification.
// Each is one audited, revision-checked transaction; the same function serves the UI and the CLI.
import { z } from 'zod';
import { assertCan, type Actor } from '../auth/index.ts';
import type { Db, Generation } from '../db/index.ts';
import { loadBundle } from '../env/index.ts';
import { rethrowIfStopping } from '../sandbox/index.ts';
import { ConflictError, NotFoundError } from '../errors/index.ts';
import type { EvolutionContext } from './context.ts';
import { enqueueRevalidation } from './jobs.ts';
import { moveGeneration, moveGenerationIn } from './move.ts';
import { AttemptState, GenerationState, LineageStatus } from '../states/index.ts';
import { validateCandidate } from './validate-candidate.ts';

export const BUDGET_FACTORS = [2, 4, 8] as const;

export const attentionExitSchema = z.discriminatedUnion('exit', [
  z.object({ exit: z.literal('retry'), budgetFactor: z.number().int().min(2).max(16).default(2) }),
  z.object({ exit: z.literal('discard'), reason: z.string().trim().min(1, 'Discarding needs a reason.').max(5000) }),
  z.object({ exit: z.literal('accept'), justification: z.string().trim().min(1, 'Accepting needs a written justification.').max(5000) }),
]);
export type AttentionExit = z.input<typeof attentionExitSchema>;

export const attentionBodySchema = z.intersection(attentionExitSchema, z.object({ revision: z.number().int().min(0) }));

export async function takeAttentionExit(db: Db, actor: Actor, generationId: string, input: AttentionExit & { revision: number }): Promise<Generation> {
  const exit = attentionExitSchema.parse(input);
  assertCan(actor, exit.exit === 'accept' ? 'generation.accept-held' : 'generation.decide');
  const who = { id: actor.id, email: actor.email };
  return db.$transaction(async (tx) => {
    const held = await tx.generation.findUnique({ where: { id: generationId } });
    if (!held) throw new NotFoundError(`generation ${generationId} not found`);
    if (held.state !== GenerationState.needsAttention) {
      throw new ConflictError(`generation ${held.number} is ${held.state.replaceAll('-', ' ')}; only a generation that needs attention has these exits`);
    }
    if (held.revision !== input.revision)
      throw new ConflictError(`generation ${held.number} changed since revision ${input.revision}; reload and choose again`);
    let moved: Generation;
    if (exit.exit === 'retry') {
      moved = await moveGenerationIn(
        tx,
        held,
        GenerationState.validating,
        {},
        {
          actor: who,
          action: 'generation.retry',
          detail: { budgetFactor: exit.budgetFactor },
          then: async (inner, g) => {
            await enqueueRevalidation(inner, { generationId, budgetFactor: exit.budgetFactor }, { dedupeKey: `revalidate:${generationId}:${g.revision}` });
          },
        },
      );
    } else if (exit.exit === 'discard') {
      const error = `superseded: discarded by ${actor.email}: ${exit.reason}`;
      moved = await moveGenerationIn(
        tx,
        held,
        GenerationState.superseded,
        { error },
        { actor: who, action: 'generation.discard', detail: { reason: exit.reason } },
      );
    } else {
      const error = `accepted without a validator verdict by ${actor.email}: ${exit.justification} (it was ${held.error ?? 'held for a person'})`;
      moved = await moveGenerationIn(
        tx,
        held,
        GenerationState.awaitingReview,
        { error },
        {
          actor: who,
          action: 'generation.accept',
          detail: { justification: exit.justification },
        },
      );
    }
    // The lineage no longer waits on this generation (a retry that is held again stops it again).
    const stillHeld = await tx.generation.count({ where: { lineageId: held.lineageId, state: GenerationState.needsAttention } });
    if (stillHeld === 0)
      await tx.lineage.updateMany({ where: { id: held.lineageId, status: LineageStatus.needsAttention }, data: { status: LineageStatus.idle } });
    return moved;
  });
}

// The retry exit's job: the held candidate validated again, as a new attempt, under larger budgets.
export async function revalidateHeld(ctx: EvolutionContext, generationId: string, budgetFactor: number): Promise<Generation> {
  const { db } = ctx;
  const generation = await db.generation.findUniqueOrThrow({ where: { id: generationId } });
  if (generation.state !== GenerationState.validating || !generation.versionId) {
    throw new ConflictError(`generation ${generation.number} is ${generation.state}; there is no held candidate to re-validate`);
  }
  const versionId = generation.versionId;
  const number = (await db.attempt.count({ where: { generationId } })) + 1;
  const started = Date.now();
  const attempt = await db.attempt.create({
    data: {
      generationId,
      number,
      candidateVersionId: versionId,
      state: AttemptState.validating,
      feedback: `re-validation of the held candidate with ×${budgetFactor} time budgets (a person chose the retry exit)`,
    },
  });
  ctx.progress(`re-validating generation ${generation.number} (${versionId.slice(0, 12)}) with ×${budgetFactor} budgets`);
  const finish = (state: AttemptState, error: string | null) =>
    db.attempt.update({ where: { id: attempt.id }, data: { state, error, durationMs: Date.now() - started } });
  try {
    const bundle = await loadBundle(db, versionId);
    const validation = await validateCandidate(
      { ...ctx, budgetFactor },
      { versionId, bundle, attemptId: attempt.id, lineageId: generation.lineageId, parentVersionId: generation.parentVersionId },
    );
    const error = validation.feedback.map((line) => line.split('\n')[0]).join('\n');
    if (validation.passed) {
      await finish(AttemptState.valid, null);
      return await moveGeneration(
        db,
        generation,
        GenerationState.awaitingReview,
        { error: null },
        { action: 'generation.revalidate', detail: { budgetFactor } },
      );
    }
    if (validation.inconclusive) {
      await finish(AttemptState.inconclusive, error);
      const held = `held for a person again after a ×${budgetFactor} retry: ${validation.inconclusive}`;
      const moved = await moveGeneration(
        db,
        generation,
        GenerationState.needsAttention,
        { error: held },
        { action: 'generation.revalidate', detail: { budgetFactor } },
      );
      await db.lineage.update({ where: { id: generation.lineageId }, data: { status: LineageStatus.needsAttention } });
      return moved;
    }
    await finish(validation.buildFailed ? AttemptState.buildFailed : AttemptState.invalid, validation.buildFailed ?? error);
    const failed = `failed on a ×${budgetFactor} retry: ${validation.buildFailed ?? error}`;
    return await moveGeneration(db, generation, GenerationState.failed, { error: failed }, { action: 'generation.revalidate', detail: { budgetFactor } });
  } catch (err) {
    rethrowIfStopping(err);
    const message = err instanceof Error ? err.message : String(err);
    await finish(AttemptState.error, message);
    // The machine failed, not the candidate: the person chooses again.
    const held = `held for a person: the ×${budgetFactor} retry could not run: ${message}`;
    return moveGeneration(db, generation, GenerationState.needsAttention, { error: held }, { action: 'generation.revalidate', detail: { budgetFactor } });
  }
}
