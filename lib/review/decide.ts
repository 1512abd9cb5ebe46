// A reviewer's decision on a generation, with optimistic concurrency: the reviewer sends the
// revision they saw, and a generation that moved on since is refused with a RevisionConflictError
// instead of being silently overwritten.
import { recordAudit } from '../audit/index.ts';
import type { Db, Prisma } from '../db/index.ts';
import {
  enqueueRevision,
  changeGenerationState,
  StaleGenerationError,
  incoherentParent,
  supersedeIncoherent,
  type Superseded,
  GenerationNotFoundError,
} from '../evolution/index.ts';
import { DECIDED_STATE, GenerationState, inGroup, REVIEWABLE_STATES } from '../states/index.ts';
import { enqueueProbe } from '../scheduler/index.ts';
import { approversOf } from './approvals.ts';
import { followUpJobKey } from './follow-up.ts';
import { DecisionRefusedError, RevisionConflictError } from './errors.ts';
import { lastChangeOf } from './last-change.ts';
import { rebuildCount } from './undo.ts';
import type { PersonActor } from '../auth/index.ts';
import type { Decision, DecisionOutcome } from './types.ts';

export interface DecideInput {
  generationId: string;
  user: PersonActor;
  decision: Decision;
  comment: string;
  revision: number; // the generation revision the reviewer rendered
}

export async function decide(db: Db, input: DecideInput): Promise<DecisionOutcome> {
  const comment = input.comment.trim();
  if (input.decision !== 'approve' && comment === '') {
    throw new DecisionRefusedError(`${input.decision === 'reject' ? 'Rejecting' : 'Requesting changes'} needs a comment saying why.`);
  }
  return db.$transaction((tx) => decideIn(tx, { ...input, comment }));
}

async function decideIn(tx: Prisma.TransactionClient, input: DecideInput): Promise<DecisionOutcome> {
  const { generationId, user, decision, comment, revision } = input;
  const generation = await tx.generation.findUnique({ where: { id: generationId }, include: { lineage: { select: { approvalsRequired: true } } } });
  if (!generation) throw new GenerationNotFoundError(generationId);
  if (generation.revision !== revision) {
    throw new RevisionConflictError({ state: generation.state, revision: generation.revision }, await lastChangeOf(tx, generationId));
  }
  if (!inGroup(generation.state, REVIEWABLE_STATES)) {
    throw new DecisionRefusedError(`Only generations awaiting review can be decided; this one is ${generation.state}.`);
  }
  // Never reviewed on a parent that is not the parent's current version (the sweeps supersede
  // such a generation; this holds even if one has not run yet).
  const incoherent = await incoherentParent(tx, generation);
  if (incoherent) throw new DecisionRefusedError(`Generation ${generation.number} cannot be reviewed: ${incoherent.replace(/^superseded: /, '')}.`);
  const required = Math.max(1, generation.lineage.approvalsRequired);
  const approversBefore = await approversOf(tx, generationId, revision);
  const before = { state: generation.state, revision, approvals: approversBefore.length };
  if (decision === 'approve' && approversBefore.includes(user.id)) {
    throw new DecisionRefusedError('You have already approved this revision; it needs another reviewer.');
  }

  const review = await tx.review.create({ data: { generationId, reviewerId: user.id, decision, comment, revision } });
  const approvals = (await approversOf(tx, generationId, revision)).length;
  const settles = decision !== 'approve' || approvals >= required;
  const actor = { id: user.id, email: user.email };
  const audit = { actor, action: `generation.${decision}`, before: { approvals: before.approvals }, after: { approvals, comment: comment || undefined } };
  if (!settles) {
    await recordAudit(tx, {
      ...audit,
      subjectType: 'generation',
      subjectId: generationId,
      before,
      after: { state: generation.state, revision, ...audit.after },
    });
    return { reviewId: review.id, state: generation.state, revision, approvals, approvalsRequired: required };
  }
  // A rejected version is never served and a version sent back for changes is about to be
  // replaced: what was evolved from it is superseded now, with the decision (lib/evolution/supersede.ts).
  const replaces = decision !== 'approve';
  let superseded: Superseded[] = [];
  const sweep = async (inner: Prisma.TransactionClient) => {
    superseded = replaces ? await supersedeIncoherent(inner, generation.lineageId, actor) : [];
    return { superseded: superseded.length > 0 ? superseded.map((s) => s.id) : undefined };
  };
  // Guarded by the revision read above: a concurrent decision that committed first makes the
  // write refuse, and the whole transaction (the Review row too) rolls back.
  const moved = await changeGenerationState(tx, generation, { to: DECIDED_STATE[decision], audit: { ...audit, effects: sweep } }).catch(
    async (err: unknown) => {
      if (!(err instanceof StaleGenerationError)) throw err;
      throw new RevisionConflictError(err.current, await lastChangeOf(tx, generationId));
    },
  );
  if (moved.state === GenerationState.approved && moved.versionId) {
    // Every approved generation is probed; the probe's end moves the lineage's frontier.
    const payload = { versionId: moved.versionId, generationId, lineageId: generation.lineageId };
    await enqueueProbe(tx, payload, { dedupeKey: followUpJobKey('approve', generationId, moved.revision) });
  }
  if (decision === 'request-changes') {
    // Queued in the same transaction, so a generation never sits in changes-requested with no
    // job to revise it. The revision evolves the superseded positions again once it settles.
    const rebuild = rebuildCount(superseded);
    await enqueueRevision(tx, { generationId, comment, rebuild }, { dedupeKey: followUpJobKey('request-changes', generationId, moved.revision) });
  }
  return { reviewId: review.id, state: moved.state, revision: moved.revision, approvals, approvalsRequired: required };
}
