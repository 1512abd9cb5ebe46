// "Send back to review": a backtest violation re-opens its generation. An approved or released
// generation goes back to awaiting review with a bumped revision, so a reviewer who had it
// open is told it changed; the finding is marked and the move is audited.
import type { Db, BacktestFinding, Generation } from '../db/index.ts';
import { assertCan, type Actor } from '../auth/index.ts';
import { ConflictError } from '../errors/index.ts';
import { changeGenerationState, StaleGenerationError } from '../evolution/index.ts';
import { GenerationState, inGroup, STANDING_STATES } from '../states/index.ts';
import { NotFoundError } from '../errors/index.ts';

export class FindingNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`backtest finding ${id} not found`);
  }
}

export interface SendBackResult {
  finding: BacktestFinding;
  generation: Generation;
  reopened: boolean; // false when it was already awaiting review
}

export async function sendFindingToReview(db: Db, actor: Actor, findingId: string): Promise<SendBackResult> {
  assertCan(actor, 'rubric.manage');
  const finding = await db.backtestFinding.findUnique({ where: { id: findingId } });
  if (!finding) throw new FindingNotFoundError(findingId);
  if (finding.sentToReview) throw new ConflictError('this finding was already sent back to review');
  if (finding.verdict !== 'failed' && finding.verdict !== 'error') throw new ConflictError(`only a violation can be sent back (this one ${finding.verdict})`);
  const before = await db.generation.findUniqueOrThrow({ where: { id: finding.generationId } });
  if (!inGroup(before.state, STANDING_STATES)) throw new ConflictError(`generation ${before.number} is ${before.state}; it cannot go back to review`);
  const item = await db.rubricItem.findUniqueOrThrow({ where: { id: finding.rubricItemId }, select: { key: true, version: true } });
  const [marked, generation] = await db.$transaction(async (tx) => {
    // Only if nobody changed it since we read it: a decision made meanwhile is not overwritten.
    const reason = `backtest of ${item.key}@${item.version} ${finding.verdict}`;
    const after = await changeGenerationState(tx, before, {
      to: GenerationState.awaitingReview,
      audit: { actor: { id: actor.id, email: actor.email }, action: 'generation.send-back', after: { reason, findingId } },
    }).catch((err: unknown) => {
      throw err instanceof StaleGenerationError ? new ConflictError(`generation ${before.number} changed while sending it back; reload and try again`) : err;
    });
    const updated = await tx.backtestFinding.update({ where: { id: findingId }, data: { sentToReview: true } });
    return [updated, after] as const;
  });
  return { finding: marked, generation, reopened: before.state !== GenerationState.awaitingReview };
}
