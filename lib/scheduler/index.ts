export { DEFAULT_SCHEDULER_CONFIG, schedulerConfigFrom, schedulerConfigSchema, type SchedulerConfig } from './config.ts';
export {
  gateDecision,
  isSimulated,
  judgeGroup,
  lineageGate,
  olderVersionReason,
  passes,
  SIMULATED_POLICY,
  type GateDecision,
  type GateRule,
  type GateVerdict,
  type GroupCounts,
  type LineageGate,
} from '../gate/index.ts';
export {
  lineageGateChangeSchema,
  lineageGateOf,
  lineageGatePatchSchema,
  setLineageGate,
  UnknownLineageError,
  withdrawalText,
  withdrawnByPolicy,
  type GateChangeOptions,
  type LineageGatePatch,
} from './lineage-gate.ts';
export { finishGroup, latestGatingGroup, newestPolicyVersion, recountGroup, GATING_PURPOSES, type GroupPurpose } from '../gate/index.ts';
export { probeVersion, type ProbeDeps, type ProbeRequest, type ProbeSummary } from './probe.ts';
export { advanceLineage, frontierVersionId, type AdvanceResult, type AdvanceStep } from './frontier.ts';
export { lineageWaits, type GenerationWait, type LineageWaits } from './waits.ts';
export { lineageGateStatus, type GateGroups, type LineageGateStatus } from './lineage-gate-status.ts';
export { gatePolicyRefusal, isRunnablePolicy, TRAINER_POLICY } from '../gate/index.ts';
export {
  enqueueProbe,
  PROBE_JOB,
  probeJobPayload,
  probePolicyOfVersion,
  probeSettings,
  scheduleLineage,
  type ProbeJobPayload,
  type ProbeSettings,
} from './jobs.ts';
export {
  batchRequestSchema,
  forgetTrainablePool,
  recentTrainablePool,
  sampleTrainingBatch,
  trainableEnvironments,
  type BatchEnvironment,
  type BatchRequest,
  type LeftOutEnvironment,
  type LeftOutReason,
  type TrainablePool,
  type TrainingBatch,
} from './batch.ts';
export { downloadRefusedError, servedTaskTarball } from './task-download.ts';
export { refusalOf, servabilityFacts, unservableReason, type ServabilityFacts, type Unservable } from './servable.ts';
export { exportDataset, exportRefusal, type DatasetExportRequest, type DatasetExportResult, type DatasetPurpose } from './dataset-export.ts';
export {
  checkTokenPolicies,
  reportPolicyRefusal,
  reportRefusedError,
  reportTrainerGroup,
  scoredRewards,
  trainerReporterOf,
  trainerReportSchema,
  type ReportOptions,
  type TrainerReport,
  type TrainerReporter,
  type TrainerReportOutcome,
  type TrainerReportResult,
} from './report.ts';
export { IDEMPOTENCY_REPLAYED_HEADER, idempotencyKeyOf, sweepExpiredIdempotencyKeys } from './idempotency.ts';
export { checkSetName, holdOut, listHeldOutSets, releaseHeldOut, versionsOfSet, type HeldOutSetSummary } from './held-out.ts';
export { evaluateHeldOutSet, type EvalReport, type EvalVersionResult } from './eval.ts';
export { policyNamed } from './policy.ts';
export { probeGroupsOf, type ProbeGroupView } from './view.ts';
export { lineageFrontierVersions } from './frontier.ts';
export { releasesOfToken, tokenReleasesText, withdrawTokenReleases, type TokenRelease, type TokenWithdrawal } from './token-releases.ts';
