// The one writer of generation rows. Every state change goes through
// changeGenerationState: the caller says which revision and state it read, the move is asserted
// against the state machine (states.ts), the revision is bumped and the change is audited, all in
// the caller's transaction — so a reviewer holding an older revision is told it changed, and no
// state moves without a record of who moved it and why. Creating a generation (in its initial
// state) and recording the axis its planning moved to are here too, so that nothing else in the
// product code updates the table; eslint.config.mjs refuses a `.generation.create/update…` call
// or an `UPDATE "Generation"` anywhere else.
import { recordAudit, type AuditActor } from '../audit/index.ts';
import type { Db, Generation, Prisma } from '../db/index.ts';
import { ConflictError, NotFoundError } from '../errors/index.ts';
import type { Axis } from '../sequence/index.ts';
import { INITIAL_STATE, transition, type GenerationState } from '../states/index.ts';

type Tx = Prisma.TransactionClient;

// What the caller read: the change applies only if the row is still there.
export interface ExpectedGeneration {
  id: string;
  state: string;
  revision: number;
}

// The fields that change with a state, and only with one.
export interface StateData {
  versionId?: string;
  error?: string | null;
  releasedByGroupId?: string | null;
  releasedByPolicy?: string | null;
  releaseRule?: string | null;
}

export interface StateAudit {
  actor: AuditActor;
  action: string; // 'generation.<verb>'
  before?: Record<string, unknown>; // recorded beside the state, revision and version before
  after?: Record<string, unknown>; // and after (a comment, a reason, a justification)
  // What the change brought about in the same transaction, recorded with it: run after the write,
  // before the audit row (the lineage sweep's superseded generations, supersede.ts).
  effects?: (tx: Tx, moved: Generation) => Promise<Record<string, unknown>>;
}

export interface StateChange {
  to: GenerationState;
  data?: StateData;
  audit: StateAudit;
  // An undone decision puts the generation back at the revision it was decided on, so approvals
  // given at that revision count again (lib/review/undo.ts). Every other change bumps it.
  restoreRevision?: number;
}

// The generation is not where the caller read it: another change committed first.
export class StaleGenerationError extends ConflictError {
  constructor(
    readonly expected: ExpectedGeneration,
    readonly current: { state: string; revision: number },
  ) {
    super(`generation ${expected.id} changed: it is ${current.state} at revision ${current.revision}, not ${expected.state} at revision ${expected.revision}`, {
      code: 'stale_generation',
      details: { expected: { state: expected.state, revision: expected.revision }, current },
    });
  }
}

export async function changeGenerationState(tx: Tx, expected: ExpectedGeneration, change: StateChange): Promise<Generation> {
  const before = await tx.generation.findUnique({ where: { id: expected.id } });
  if (!before) throw new NotFoundError(`generation ${expected.id} not found`);
  if (before.state !== expected.state || before.revision !== expected.revision) throw new StaleGenerationError(expected, before);
  const state = transition(before.state, change.to);
  const { count } = await tx.generation.updateMany({
    // Guarded again by the write itself: on PostgreSQL a concurrent change may commit between the read and here.
    where: { id: expected.id, state: expected.state, revision: expected.revision },
    data: { ...change.data, state, revision: nextRevision(expected.revision, change.restoreRevision) },
  });
  if (count === 0) throw new StaleGenerationError(expected, await tx.generation.findUniqueOrThrow({ where: { id: expected.id } }));
  const moved = await tx.generation.findUniqueOrThrow({ where: { id: expected.id } });
  const effects = (await change.audit.effects?.(tx, moved)) ?? {};
  await recordAudit(tx, {
    actor: change.audit.actor,
    action: change.audit.action,
    subjectType: 'generation',
    subjectId: moved.id,
    before: { state: before.state, revision: before.revision, versionId: before.versionId, ...change.audit.before },
    after: { state: moved.state, revision: moved.revision, versionId: moved.versionId, ...change.audit.after, ...effects },
  });
  return moved;
}

function nextRevision(current: number, restore: number | undefined): number {
  if (restore === undefined) return current + 1;
  // Only back to an earlier revision: a restore must never land on one a reviewer has not seen.
  if (!Number.isInteger(restore) || restore < 0 || restore >= current) throw new Error(`cannot restore revision ${restore} from revision ${current}`);
  return restore;
}

export interface NewGeneration {
  lineageId: string;
  number: number;
  parentVersionId: string;
  axis: Axis;
  effort: string;
}

// A new generation starts in the initial state at revision 0; creation is not a state change.
export async function createGeneration(db: Pick<Db, 'generation'>, data: NewGeneration): Promise<Generation> {
  return db.generation.create({ data: { ...data, state: INITIAL_STATE } });
}

// Planning moved on to another axis (plan-axes.ts): not a state change, so no revision.
export async function recordGenerationAxis(db: Pick<Db, 'generation'>, generationId: string, axis: Axis): Promise<Generation> {
  return db.generation.update({ where: { id: generationId }, data: { axis } });
}
