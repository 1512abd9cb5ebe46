// The generation state machine, in one place: every state a generation can be in, the groups the
// rest of the code asks about (in progress, reviewable, servable, …) and the moves allowed between
// states. Code that changes a generation's state asserts the move here first, so a new state or
// a new move is added once. Attempt states and lineage statuses live here too: they share words
// with generation states and are drawn on the same tree.
import { ConflictError } from '../errors/index.ts';

export const GenerationState = {
  planning: 'planning',
  modifying: 'modifying',
  validating: 'validating',
  awaitingReview: 'awaiting-review',
  changesRequested: 'changes-requested',
  approved: 'approved',
  rejected: 'rejected',
  released: 'released',
  failed: 'failed',
  exhausted: 'exhausted',
  superseded: 'superseded',
  // A candidate no validator could judge, held for a person.
  needsAttention: 'needs-attention',
} as const;
export type GenerationState = (typeof GenerationState)[keyof typeof GenerationState];
const S = GenerationState;
export const GENERATION_STATES = [
  S.planning,
  S.modifying,
  S.validating,
  S.awaitingReview,
  S.changesRequested,
  S.approved,
  S.rejected,
  S.released,
  S.failed,
  S.exhausted,
  S.superseded,
  S.needsAttention,
] as const;

// Mid-loop: the process evolving it settles it (or, if that process died, marks it failed).
export const IN_PROGRESS_STATES = [S.planning, S.modifying, S.validating] as const;
// A reviewer may decide on it.
export const REVIEWABLE_STATES = [S.awaitingReview] as const;
// A trainer may be served its version (see lib/scheduler/servable.ts for the whole rule).
export const SERVABLE_STATES = [S.released] as const;
// Out of the running for good: nothing moves it again (but a reviewer's undo, within the undo
// window, of a rejection, or of the decision that superseded it: lib/review/undo.ts).
export const TERMINAL_STATES = [S.rejected, S.failed, S.exhausted, S.superseded] as const;
// Validated and still standing: the next generation evolves from the newest of these, a backtest
// looks at them by default, and a backtest violation can send one back to review.
export const STANDING_STATES = [S.awaitingReview, S.approved, S.released] as const;
// What a backtest may be asked to look at: the standing ones and the rejected ones.
export const BACKTESTABLE_STATES = [...STANDING_STATES, S.rejected] as const;
// Still on the way to a release decision: evolution is not asked for another while one exists.
export const PENDING_STATES = [...IN_PROGRESS_STATES, S.awaitingReview, S.changesRequested, S.approved] as const;
// Ended on a validated version, whatever review then made of it.
export const VALIDATED_STATES = [S.awaitingReview, S.changesRequested, S.approved, S.rejected, S.released] as const;
// Marked superseded when an ancestor is rejected (the others keep their state; see supersede.ts).
export const SUPERSEDABLE_STATES = [S.awaitingReview, S.changesRequested, S.approved, S.released, S.needsAttention] as const;
// A held-out lineage's versions: everything it settled on except what was rejected or failed.
export const UNSERVED_STATES = [S.rejected, S.failed] as const;

// The state a reviewer's decision moves a generation to (approve only once enough reviewers agree).
export const DECIDED_STATE = {
  approve: S.approved,
  reject: S.rejected,
  'request-changes': S.changesRequested,
} as const satisfies Record<string, GenerationState>;

// Every move a generation may make. Creation starts it in `planning`.
export const INITIAL_STATE = S.planning;
const TRANSITIONS: Record<GenerationState, readonly GenerationState[]> = {
  // Loop 1 ends in a plan (→ modifying), no plan (failed) or no axis left to harden (exhausted).
  [S.planning]: [S.modifying, S.failed, S.exhausted],
  // Loop 2 settles the generation on a candidate, or not.
  [S.modifying]: [S.validating, S.awaitingReview, S.needsAttention, S.failed],
  [S.validating]: [S.awaitingReview, S.needsAttention, S.failed],
  [S.awaitingReview]: [S.approved, S.rejected, S.changesRequested, S.superseded, S.awaitingReview],
  // Request changes: Loop 2 runs again with the reviewer's comment. A decision's undo, within its
  // window, puts a decided generation back to review (lib/review/undo.ts).
  [S.changesRequested]: [S.modifying, S.superseded, S.awaitingReview],
  // Released when the frontier's probe passes; sent back to review by a backtest violation.
  [S.approved]: [S.released, S.awaitingReview, S.superseded],
  // Withdrawn to approved when the lineage's probe policy changes.
  [S.released]: [S.approved, S.awaitingReview, S.superseded],
  // Held for a person, who takes one of its exits (attention.ts): re-validate with a larger
  // budget, discard it (superseded) or, a lead, accept it to review with a written justification.
  [S.needsAttention]: [S.validating, S.superseded, S.awaitingReview],
  [S.rejected]: [S.awaitingReview],
  [S.failed]: [],
  [S.exhausted]: [],
  // Back to where it stood, only by undoing the decision that set it aside (lib/review/undo.ts).
  [S.superseded]: [...SUPERSEDABLE_STATES],
};

export function isGenerationState(value: string): value is GenerationState {
  return (GENERATION_STATES as readonly string[]).includes(value);
}

export function inGroup(state: string, group: readonly GenerationState[]): boolean {
  return (group as readonly string[]).includes(state);
}

export function canTransition(from: string, to: GenerationState): boolean {
  return isGenerationState(from) && TRANSITIONS[from].includes(to);
}

// A move the machine does not allow is a conflict: the generation is not where the caller thought.
export class IllegalTransitionError extends ConflictError {
  constructor(
    readonly from: string,
    readonly to: string,
  ) {
    super(`a generation cannot move from ${from} to ${to}`);
  }
}

// Asserts a move and returns the new state, so a write reads `state: transition(from, to)`.
export function transition(from: string, to: GenerationState): GenerationState {
  if (!canTransition(from, to)) throw new IllegalTransitionError(from, to);
  return to;
}

// Asserts that every state of a group may make the move: for a write guarded by `state: { in: … }`.
export function transitionFromAny(from: readonly GenerationState[], to: GenerationState): GenerationState {
  for (const state of from) transition(state, to);
  return to;
}

// One attempt of Loop 2.
export const AttemptState = {
  modifying: 'modifying',
  validating: 'validating',
  valid: 'valid',
  invalid: 'invalid',
  inconclusive: 'inconclusive',
  skipped: 'skipped', // byte-identical to an attempt that already failed: not run
  error: 'error',
  buildFailed: 'build-failed', // the image does not build: another try would fail the same way
} as const;
export type AttemptState = (typeof AttemptState)[keyof typeof AttemptState];

// What a lineage's evolution is doing.
export const LineageStatus = {
  idle: 'idle',
  evolving: 'evolving',
  stalled: 'stalled',
  exhausted: 'exhausted',
  needsAttention: 'needs-attention',
} as const;
export type LineageStatus = (typeof LineageStatus)[keyof typeof LineageStatus];
const L = LineageStatus;
export const LINEAGE_STATUSES = [L.idle, L.evolving, L.stalled, L.exhausted, L.needsAttention] as const;

// What a page shows while work for a lineage waits in the job queue, in place of the stored status
// (which the evolution itself writes once it begins): a job no worker has claimed yet, or one a
// worker claimed before any generation started.
export const LineageWorkStatus = {
  queued: 'queued',
  starting: 'starting',
} as const;
export type LineageWorkStatus = (typeof LineageWorkStatus)[keyof typeof LineageWorkStatus];

// A state as a sentence says it: "awaiting review", "needs attention".
export function stateLabel(state: string): string {
  return state.replaceAll('-', ' ');
}
