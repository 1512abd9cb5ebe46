export { BUILTIN_RUBRIC } from './builtin-items.ts';
export { configuredJudge } from './backtest-judge.ts';
export {
  BACKTEST_JOB,
  BACKTEST_STATES,
  backtestJobPayload,
  backtestRequestSchema,
  enqueueBacktest,
  latestBacktestJob,
  type BacktestJobPayload,
  type BacktestJobStatus,
} from './backtest-job.ts';
export {
  itemVerdicts,
  listRubricCatalogue,
  RubricItemNotFoundError,
  setItemActive,
  setItemActiveSchema,
  type ItemVerdictRow,
  type RubricKeyView,
} from './catalogue.ts';
export { reviewPlanAgainstRubric, type PlanRubricInput } from './plan-review.ts';
export {
  activeRubric,
  saveRubricItem,
  saveRubricItemIn,
  setRubricItemActive,
  syncBuiltinRubric,
  type ActiveRubricQuery,
  type RubricItemInput,
  type SaveResult,
  type SyncResult,
} from './store.ts';
export { RUBRIC_APPLIES_TO, type RubricAppliesTo, type RubricItemDef } from './types.ts';
export { runRubricValidator, type RubricValidatorOptions, type RubricValidatorRun } from './validate-rubric.ts';
export { checkVerdict, judgeVerdict, runVerdict, type ItemVerdict, type RubricMethod, type RubricRunVerdict, type RubricVerdictValue } from './verdicts.ts';
export { rubricVersionLabel, toItemView } from './view.ts';
export { backtestView, type BacktestView } from './backtest-view.ts';
export { setItemActiveIn } from './catalogue.ts';
export { rubricJudgements, rubricRunsOfGeneration, runVerdictsQuerySchema, type RubricRunView } from './run-verdicts.ts';
export { runBacktest, BACKTEST_CONCURRENCY, DEFAULT_BACKTEST_STATES, listBacktestFindings } from './backtest.ts';
export { countJudgement, judgementsByRun, judgementText, NO_JUDGEMENT, rubricRunLabel, type RubricJudgement } from './judgement.ts';
