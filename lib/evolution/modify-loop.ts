// Loop 2: the modifier writes a residual over the parent's files; the candidate it produces is
// stored as a new version (with its sequence and difficulty) and validated. Failures go back to
// the modifier with the validator output, up to the configured rounds. Every attempt is stored.
import type { Generation } from '../db/index.ts';
import { storeDifficulty } from '../difficulty/index.ts';
import { contentHash, applyResidual, serializeResidual, storeBundle, validateBundle, formatProblem } from '../env/index.ts';
import type { Plan } from '../synth/index.ts';
import { isDeterministicBuildFailure, rethrowIfStopping } from '../sandbox/index.ts';
import { builtDifficulty, identicalFailedAttempt } from './candidate-checks.ts';
import type { EvolutionContext } from './context.ts';
import { lineagePriorsTable } from './difficulty-gate.ts';
import type { LoadedLineage } from './lineage.ts';
import type { GenerationParent } from './parent.ts';
import { deriveSeed } from './seeds.ts';
import { AttemptState, GenerationState } from '../states/index.ts';
import { validateCandidate } from './validate-candidate.ts';

export type ModifyOutcome =
  | { ok: true; versionId: string }
  | { ok: false; reasons: string[] }
  // The candidate met no fault but no verdict either: retrying it would only meet the same machine.
  | { ok: false; reasons: string[]; inconclusive: { versionId: string; reason: string } }
  // The candidate's image did not build (a build error, a missing base image): the same build
  // fails the same way, so it is not retried; `buildFailed` carries the build log's tail, once.
  | { ok: false; reasons: string[]; buildFailed: string };

export interface Settlement {
  state: typeof GenerationState.awaitingReview | typeof GenerationState.needsAttention | typeof GenerationState.failed;
  versionId?: string;
  error: string | null;
}

// How a generation settles on what Loop 2 produced: a valid candidate awaits review; one that
// met no verdict is held, with its candidate, for a person; anything else failed.
export function settlementOf(outcome: ModifyOutcome, failure: string): Settlement {
  if (outcome.ok) return { state: GenerationState.awaitingReview, versionId: outcome.versionId, error: null };
  if ('inconclusive' in outcome) {
    return { state: GenerationState.needsAttention, versionId: outcome.inconclusive.versionId, error: `held for a person: ${outcome.inconclusive.reason}` };
  }
  if ('buildFailed' in outcome) return { state: GenerationState.failed, error: `${failure}: not retried, the image does not build: ${outcome.buildFailed}` };
  return { state: GenerationState.failed, error: `${failure}: ${outcome.reasons.join('\n')}` };
}

export async function modifyLoop(
  ctx: EvolutionContext,
  lineage: LoadedLineage,
  generation: Generation,
  parent: GenerationParent,
  plan: Plan,
  initialFeedback: string[] = [],
): Promise<ModifyOutcome> {
  const first = (await ctx.db.attempt.count({ where: { generationId: generation.id } })) + 1;
  let feedback = initialFeedback;
  for (let number = first; number < first + lineage.settings.loops.maxModifyRounds; number++) {
    const outcome = await runAttempt(ctx, lineage, generation, parent, plan, number, feedback);
    ctx.progress(`  attempt ${number}: ${describe(outcome)}`);
    if (outcome.ok || 'inconclusive' in outcome || 'buildFailed' in outcome) return outcome;
    feedback = outcome.reasons;
  }
  return { ok: false, reasons: feedback };
}

async function runAttempt(
  ctx: EvolutionContext,
  lineage: LoadedLineage,
  generation: Generation,
  parent: GenerationParent,
  plan: Plan,
  number: number,
  feedback: string[],
): Promise<ModifyOutcome> {
  const { db } = ctx;
  const started = Date.now();
  const attempt = await db.attempt.create({
    data: { generationId: generation.id, number, feedback: feedback.join('\n\n'), state: AttemptState.modifying },
  });
  const finish = (state: AttemptState, data: { error?: string } = {}) =>
    db.attempt.update({ where: { id: attempt.id }, data: { state, durationMs: Date.now() - started, ...data } });
  try {
    const seed = deriveSeed(lineage.settings.seed, generation.number, 'modify', number);
    // The candidate's own name goes into what is rendered (the instruction's title): the
    // parent's would title every generation after the one before it.
    const childName = `${lineage.row.name.split(' · ')[0]}-g${generation.number}`;
    const output = await ctx.synthesiser.modify({ parent, plan, seed, attempt: number, feedback, childName });
    await db.attempt.update({ where: { id: attempt.id }, data: { residual: JSON.stringify(serializeResidual(output.residual)) } });
    if (output.residual.changes.length === 0) throw new Error('the residual changes nothing: the candidate would be its parent');
    const child = applyResidual(parent.bundle, output.residual, childName);
    const problems = validateBundle(child).filter((p) => p.severity === 'error');
    if (problems.length > 0) throw new Error(`the candidate is not a valid task: ${problems.map(formatProblem).join('; ')}`);

    // A retry that changes nothing would fail the same way: recorded, not run.
    const hash = contentHash(child);
    const identical = await identicalFailedAttempt(ctx, generation.id, hash);
    if (identical) {
      const reason = `skipped: the candidate is byte-identical to attempt ${identical.number} (content hash ${hash.slice(0, 12)}), which already failed`;
      await finish(AttemptState.skipped, { error: reason });
      return { ok: false, reasons: [reason, ...feedback] };
    }
    const built = await builtDifficulty(ctx, child, plan, parent.sequence, lineage.settings.loops.difficultyMargin, await lineagePriorsTable(db, lineage.row));

    const metadata = {
      kind: 'generation',
      lineageId: lineage.row.id,
      generation: generation.number,
      parents: [parent.versionId],
      sequence: built.sequence,
      synthesiser: ctx.synthesiser.name,
      axis: generation.axis,
      effort: generation.effort,
    };
    const versionId = await storeBundle(db, child, { source: 'evolution', metadata });
    await storeDifficulty(db, versionId, built.difficulty);
    if (built.problems.length > 0) {
      await db.attempt.update({ where: { id: attempt.id }, data: { candidateVersionId: versionId } });
      await finish(AttemptState.invalid, { error: built.problems.join('\n') });
      return { ok: false, reasons: built.problems };
    }
    await db.attempt.update({ where: { id: attempt.id }, data: { candidateVersionId: versionId, state: AttemptState.validating } });

    const validation = await validateCandidate(ctx, {
      versionId,
      bundle: child,
      attemptId: attempt.id,
      lineageId: lineage.row.id,
      parentVersionId: parent.versionId,
    });
    if (validation.passed) {
      await finish(AttemptState.valid);
      return { ok: true, versionId };
    }
    const error = validation.feedback.map(firstLine).join('\n');
    if (validation.buildFailed) {
      await finish(AttemptState.buildFailed, { error: validation.buildFailed });
      return { ok: false, reasons: [firstLine(validation.buildFailed)], buildFailed: validation.buildFailed };
    }
    if (validation.inconclusive) {
      await finish(AttemptState.inconclusive, { error });
      return { ok: false, reasons: validation.feedback, inconclusive: { versionId, reason: validation.inconclusive } };
    }
    await finish(AttemptState.invalid, { error });
    return { ok: false, reasons: validation.feedback };
  } catch (err) {
    rethrowIfStopping(err);
    const message = err instanceof Error ? err.message : String(err);
    // The synthesiser builds the parent's image to run its oracle: a build failure there is as final.
    if (isDeterministicBuildFailure(err)) {
      await finish(AttemptState.buildFailed, { error: message });
      return { ok: false, reasons: [firstLine(message)], buildFailed: message };
    }
    await finish(AttemptState.error, { error: message });
    return { ok: false, reasons: [message] };
  }
}

function describe(outcome: ModifyOutcome): string {
  if (outcome.ok) return 'valid';
  const reasons = outcome.reasons.map(firstLine).join('; ');
  if ('buildFailed' in outcome) return `image build failed, not retried (${reasons})`;
  return 'inconclusive' in outcome ? `inconclusive, held for a person (${reasons})` : `invalid (${reasons})`;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
