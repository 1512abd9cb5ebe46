// Calibration of the verifier against blind human labels.
export * from './errors.ts';
export { itemParamsSchema, setMetricsView, setParamsSchema, setsVisibleTo } from './params.ts';
export { describeScope, type CalibrationScope } from './scope.ts';
export { type Estimate } from './metrics-population.ts';
export { isCalibrationStale, calibrationVerifierStatus } from './verifier-version.ts';
export { createCalibrationSet, getSetSummary, listCalibrationSets, listSetsForAnnotator, newSetSchema, type SetSummary, SetState } from './sets.ts';
export { claimNext, peekQueue, type AnnotatorQueue } from './assignment.ts';
export { submitLabel, labelInputSchema } from './labelling.ts';
export { annotatorItemView, type AnnotatorItemView } from './annotator-view.ts';
export { trajectoryView, type TrajectoryView } from './trajectory-view.ts';
export { adjudicate, adjudicationQueue, adjudicationSchema } from './adjudication.ts';
export { setMetrics, type VerifierScore } from './set-metrics.ts';
export { exportCalibration, exportQuerySchema } from './export.ts';
export { requestRescore, rescoreRequestSchema } from './rescore-request.ts';
export { rescoreSet, rescoreJobPayload, CALIBRATION_RESCORE_JOB } from './rescore.ts';
export type { HumanLabel } from './metrics-kappa.ts';
export type { Rate } from './metrics.ts';
export { annotatorIdsOf } from './sets.ts';
