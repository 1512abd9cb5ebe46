// The dashboard's read models: environments, lineages, generations and the home page.
// The public API of lib/dashboard: other modules import it from here, never from its files (README, Layers).
export { resolveIdPrefix } from './short-id.ts';
export { formatTimestamp, formatBytes, shortHash, formatDuration, formatReward } from './format.ts';
export { getEnvironment, listEnvironments, getValidatorRunLog, ENVIRONMENT_LIST_LIMIT } from './environments.ts';
export { environmentIdSchema, environmentSearchSchema, logPhaseSchema, validatorRunIdSchema } from './params.ts';
export { getResidualFileDiff, getGenerationReview } from './generation.ts';
export { lineageParamsSchema, treeQuerySchema, lineageListSchema, lineageIdSchema, policyViewSchema, lineageListFromSearchParams } from './lineages-params.ts';
export { getLineageTree, listLineages } from './lineages.ts';
export {
  type EnvironmentFileRow,
  type EnvironmentDetail,
  type LogPhase,
  type TaskTomlSection,
  type ValidatorRunRow,
  type EnvironmentListItem,
  type VerdictSummary,
} from './types.ts';
export {
  type AttemptRunView,
  type AttemptView,
  type DifficultyAxes,
  type FileDiffView,
  type ReviewView,
  type PlanRoundView,
  type ResidualFileSummary,
  type SequenceView,
} from './generation-types.ts';
export { mergeRubricVerdicts, orderRuns, summaryText, verdictSummary, type RubricItemRow } from './verdict-summary.ts';
export {
  type TreeGate,
  type Difficulty,
  type LineageTree,
  type TreeVerdict,
  type TreeGeneration,
  type TreeProbe,
  type TreeAttempt,
  type LineageListQuery,
  type PassRatePoint,
} from './lineages-types.ts';
export { homeWork } from './home.ts';
export { type SortDirection, type SearchParamsLike, parseTableView } from './table-view.ts';
export { attemptFileDiff, compareAttempts } from './attempt-compare.ts';
export { type AttemptComparison, type ChangedSinceReview } from './generation-types.ts';
