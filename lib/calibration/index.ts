// Calibration of the verifier against blind human labels.
export * from './errors.ts';
export { itemParamsSchema, setMetricsView, setParamsSchema, setsVisibleTo } from './params.ts';
export { scopeSchema, scopeVersionIds, describeScope, type CalibrationScope } from './scope.ts';
export {
  largestStratifiedSize,
  randomSample,
  stratifiedSample,
  stratumPopulation,
  stratumSizes,
  seededRandom,
  type SampleCandidate,
  type SampledItem,
} from './sample.ts';
export { populationEstimates, DRAWS, type Estimate, type PopulationEstimates, type SamplingDesign, type StratumSummary } from './metrics-population.ts';
export {
  verifierVersionOf,
  isCalibrationStale,
  calibrationVerifierStatus,
  currentVerifierSources,
  setVersionIds,
  type VerifierStatus,
} from './verifier-version.ts';
export {
  createCalibrationSet,
  getSetSummary,
  listCalibrationSets,
  listSetsForAnnotator,
  newSetSchema,
  DEFAULT_PASS_SHARE,
  DEFAULT_SET_SIZE,
  type AnnotatorSetSummary,
  type NewSetInput,
  type SetSummary,
  SET_STATES,
  SetState,
} from './sets.ts';
export { claimNext, peekQueue, LEASE_MS, type AnnotatorQueue } from './assignment.ts';
export { submitLabel, labelInputSchema, type LabelInput } from './labelling.ts';
export { annotatorItemView, type AnnotatorItemView } from './annotator-view.ts';
export { trajectoryView, type TrajectoryView, type TrajectoryTurn, type Artifact } from './trajectory-view.ts';
export { adjudicate, adjudicationQueue, adjudicationSchema, type AdjudicationItem } from './adjudication.ts';
export { setMetrics, interAnnotator, type SetMetrics, type VerifierScore, type InterAnnotator } from './set-metrics.ts';
export { exportCalibration, exportQuerySchema, labelRows, metricRows, toCsv, toJsonl, type ExportFormat } from './export.ts';
export { requestRescore, rescoreRequestSchema } from './rescore-request.ts';
export { rescoreSet, replayScript, withTests, rescoreJobPayload, CALIBRATION_RESCORE_JOB, type RescoreResult } from './rescore.ts';
export type { HumanLabel, Kappa } from './metrics-kappa.ts';
export type { CalibrationMetrics, Rate } from './metrics.ts';
export type { TrustResult, TrustVerdict } from './metrics-verdict.ts';
export { annotatorIdsOf } from './sets.ts';
