export { convertMissedIssue, dismissMissedIssue, draftFromIssue, MissedIssueNotFoundError, type ConversionDraft, type ConversionResult } from './convert.ts';
export { DuplicateMissedIssueError, fileMissedIssue } from './file.ts';
export { GenerationNotFoundError } from '../evolution/index.ts';
export { getMissedIssue, listMissedIssues, MISSED_ISSUE_LIST_LIMIT, openMissedIssueCount, type MissedIssueRow } from './list.ts';
export { slugify, uniqueRubricKey } from './rubric-key.ts';
export {
  CHECK_MAX_BYTES,
  convertMissedIssueSchema,
  fileMissedIssueRequestSchema,
  fileMissedIssueSchema,
  ITEM_APPLIES_TO,
  ITEM_SCOPES,
  MISSED_ISSUE_STATES,
  MissedIssueState,
  missedIssueFilterSchema,
  QUESTION_MAX_CHARS,
  SEVERITIES,
  VALIDATOR_KINDS,
  type ConvertMissedIssueInput,
  type FileMissedIssueInput,
  type MissedIssueFilter,
} from './schema.ts';
export { FindingNotFoundError, sendFindingToReview, type SendBackResult } from './send-back.ts';
export { draftFromPrefill, parsePrefill, type MissedIssueDraft } from './prefill.ts';
export { type Severity } from './schema.ts';
