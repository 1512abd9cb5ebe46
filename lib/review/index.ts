export { decide, type DecideInput } from './decide.ts';
export { approversOf } from './approvals.ts';
export { addComment, listComments, emailsOf, type CommentInput, type ReviewCommentView } from './comments.ts';
export { setFileViewed, viewedFiles } from './viewed.ts';
export { reviewQueue, QUEUE_PAGE_SIZE, type QueueItem, type QueuePage } from './queue.ts';
export { DecisionRefusedError, GenerationNotFoundError, RevisionConflictError, type LastChange } from './errors.ts';
export { lastChangeOf } from './last-change.ts';
export { diffLines, splitLines, toHunks, MAX_EDIT_DISTANCE, type DiffHunk, type DiffLine, type DiffLineKind } from './line-diff.ts';
export { DECISIONS, type Decision, type DecisionOutcome } from './types.ts';
