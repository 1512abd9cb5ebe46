// Validation of an environment version: the oracle, invalid-test, near-miss and counter-check
// trials and their verdicts.
// The public API of lib/validate: other modules import it from here, never from its files (README, Layers).
export { trialRequest, taskResources } from './trial-request.ts';
export { BUILD_FAILED, REFUSED, validateEnvironment } from './validate-environment.ts';
export type { RunRecord } from './run-record.ts';
export { VALIDATE_JOB, validateJobPayload, enqueueValidation } from './jobs.ts';
export { SOLUTION_CHECK_KINDS } from './solution-checks.ts';
export type { AncestorSolution, SolutionCheckInput, SolutionCheckKind } from './solution-check-plan.ts';
export { parseSolutionCheckReport, type ReportRun, type SolutionCheckReport, type StepResult } from './solution-check-report.ts';
