// `envolve attention GENERATION --retry [--budget N] | --discard REASON | --accept JUSTIFICATION`:
// the exits of a needs-attention generation (lib/evolution/attention.ts), audited as the
// operator's OS account. A retry queues a re-validation that a worker (`envolve worker`) runs.
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import type { Actor } from '../../lib/auth/index.ts';
import { BUDGET_FACTORS, takeAttentionExit, type AttentionExit } from '../../lib/evolution/index.ts';
import { NotFoundError } from '../../lib/errors/index.ts';
import { withDb } from '../context.ts';
import { positiveInt } from '../flags.ts';
import { emit, fail, type OutputOptions } from '../output.ts';

interface AttentionOptions extends OutputOptions {
  retry?: boolean;
  budget: string;
  discard?: string;
  accept?: string;
}

const operator = (): Actor => ({ id: null, email: `cli:${userInfo().username}`, role: 'admin' });

export function registerAttentionCommand(program: Command): void {
  program
    .command('attention')
    .argument('<generation>', 'the generation id (as `envolve evolve` names it when it stops)')
    .description('take an exit of a needs-attention generation: retry with a larger budget, discard, or accept to review')
    .option('--retry', 'validate the same candidate again with larger time budgets')
    .option('--budget <factor>', `the retry's budget multiplier (${BUDGET_FACTORS.join(', ')}, up to 16)`, '2')
    .option('--discard <reason>', 'mark it superseded, with this reason')
    .option('--accept <justification>', 'send it to human review without a verdict, with this justification (a lead)')
    .option('--json', 'print one JSON document')
    .action(async (generationId: string, opts: AttentionOptions) => {
      try {
        const exit = exitOf(opts);
        const moved = await withDb(async (db) => {
          const held = await db.generation.findUnique({ where: { id: generationId } });
          if (!held) throw new NotFoundError(`generation ${generationId} not found`);
          return takeAttentionExit(db, operator(), generationId, { ...exit, revision: held.revision });
        });
        const next =
          exit.exit === 'retry'
            ? 'a re-validation is queued; a worker (`envolve worker`) runs it'
            : exit.exit === 'accept'
              ? 'it awaits review'
              : 'it is superseded';
        emit(
          opts,
          { generationId, exit: exit.exit, state: moved.state, revision: moved.revision },
          () => `generation ${moved.number}: ${moved.state}; ${next}`,
        );
      } catch (err) {
        fail(opts, err);
      }
    });
}

// Exactly one exit, named: nothing is done on a guess.
function exitOf(opts: AttentionOptions): AttentionExit {
  const chosen = [opts.retry && 'retry', opts.discard !== undefined && 'discard', opts.accept !== undefined && 'accept'].filter(Boolean);
  if (chosen.length !== 1) throw new Error('choose exactly one exit: --retry [--budget N], --discard "<reason>" or --accept "<justification>"');
  if (opts.retry) return { exit: 'retry', budgetFactor: positiveInt(opts.budget, '--budget') };
  if (opts.discard !== undefined) return { exit: 'discard', reason: opts.discard };
  return { exit: 'accept', justification: opts.accept ?? '' };
}
