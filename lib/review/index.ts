export { decide, type DecideInput } from './decide.ts';
export { approversOf, shownApprovers } from './approvals.ts';
export { addComment, listComments, emailsOf, type CommentInput, type ReviewCommentView } from './comments.ts';
export { setFileViewed, viewedFiles } from './viewed.ts';
export {
  nextForReviewer,
  reviewQueue,
  QUEUE_PAGE_SIZE,
  QUEUE_DEFAULT_SORT,
  QUEUE_SORTS,
  type QueueSort,
  type NextInQueue,
  type QueueItem,
  type QueuePage,
} from './queue.ts';
export {
  undoableDecision,
  undoDecision,
  undoneDecision,
  rebuildCount,
  UNDO_WINDOW_MS,
  withinUndoWindow,
  type SetAside,
  type UndoableDecision,
  type UndoneDecision,
  type UndoOutcome,
} from './undo.ts';
export { DecisionRefusedError, RevisionConflictError, type LastChange } from './errors.ts';
export { GenerationNotFoundError } from '../evolution/index.ts';
export { lastChangeOf } from './last-change.ts';
export {
  diffLines,
  splitLines,
  toHunks,
  gapToReveal,
  EXPAND_STEP,
  MAX_EDIT_DISTANCE,
  type DiffHunk,
  type DiffLine,
  type DiffLineKind,
  type DiffSegment,
} from './file-diff.ts';
export { DECISIONS, type Decision, type DecisionOutcome } from './types.ts';
export {
  generationParamsSchema,
  commentBodySchema,
  decisionBodySchema,
  undoBodySchema,
  diffQuerySchema,
  viewedBodySchema,
  generationIdSchema,
} from './params.ts';
export { attemptFileDiffQuerySchema, attemptPairQuerySchema } from './params.ts';
