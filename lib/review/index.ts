export { decide } from './decide.ts';
export { shownApprovers } from './approvals.ts';
export { addComment, listComments, emailsOf, type ReviewCommentView } from './comments.ts';
export { setFileViewed, viewedFiles } from './viewed.ts';
export { nextForReviewer, reviewQueue, QUEUE_DEFAULT_SORT, QUEUE_SORTS, type QueueSort, type NextInQueue } from './queue.ts';
export { undoableDecision, undoDecision, undoneDecision, type SetAside, type UndoableDecision, type UndoneDecision, type UndoOutcome } from './undo.ts';
export { DecisionRefusedError, type LastChange } from './errors.ts';
export { lastChangeOf } from './last-change.ts';
export { diffLines, type DiffLine } from './file-diff.ts';
export { type Decision, type DecisionOutcome } from './types.ts';
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
