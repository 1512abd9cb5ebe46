// Two checks of a candidate before it spends sandbox time:
// - a retry that would be byte-identical to an attempt that already failed is not run again;
// - the candidate's difficulty is measured on what was BUILT: the synthesiser's extraction role
//   reads the sequence off the candidate's files, and D computed from it must still exceed the
//   parent's by the margin. A plan that promised more than the files deliver fails here, as a
//   rubric failure with both numbers, shown on the attempt.
import type { Difficulty, ReferenceTable } from '../difficulty/index.ts';
import type { TaskBundle } from '../bundle/index.ts';
import type { Sequence } from '../sequence/index.ts';
import type { Plan } from '../synth/index.ts';
import type { EvolutionContext } from './context.ts';
import { describeDifficulty, measure, monotoneViolations } from './difficulty-gate.ts';
import { AttemptState } from '../states/index.ts';

export async function identicalFailedAttempt(ctx: EvolutionContext, generationId: string, contentHash: string): Promise<{ number: number } | null> {
  return ctx.db.attempt.findFirst({
    where: { generationId, candidateVersionId: contentHash, state: { in: [AttemptState.invalid, AttemptState.skipped] } },
    orderBy: { number: 'asc' },
    select: { number: true },
  });
}

export interface BuiltDifficulty {
  sequence: Sequence; // as extracted from the candidate's files
  difficulty: Difficulty;
  problems: string[]; // empty when the built candidate is harder than its parent by the margin
}

export async function builtDifficulty(
  ctx: EvolutionContext,
  candidate: TaskBundle,
  plan: Plan,
  parent: Sequence,
  margin: number,
  table: ReferenceTable,
): Promise<BuiltDifficulty> {
  const sequence = await ctx.synthesiser.extractSequence(candidate);
  const [built, planned, before] = await Promise.all([measure(ctx, sequence, table), measure(ctx, plan.child, table), measure(ctx, parent, table)]);
  const problems =
    monotoneViolations(before, built, 'built', margin).length === 0
      ? []
      : [
          `rubric: monotone-difficulty: the sequence extracted from the built candidate has ${describeDifficulty(built)}, not more than the parent's ${describeDifficulty(before)} by ${margin}; the approved plan promised ${describeDifficulty(planned)}`,
        ];
  return { sequence, difficulty: built, problems };
}
