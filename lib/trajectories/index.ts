// Recorded trajectories: their list, detail, search, comparison, flags and suspicion scores.
// The public API of lib/trajectories: other modules import it from here, never from its files (README, Layers).
export { refreshSuspicion, refreshAllSuspicion } from './suspicion-store.ts';
export {
  changedFileContent,
  changedFileQuerySchema,
  rolloutParamsSchema,
  stepOutput,
  stepParamsSchema,
  type ChangedFile,
  getTrajectory,
  rolloutIdSchema,
  siblingTrajectories,
  type TurnView,
  type TrajectoryDetail,
} from './detail.ts';
export { flagInputSchema, flagTrajectory, unflagTrajectoryVersion, versionCompromise, type FlagOutcome } from './flag.ts';
export { trajectoryNeighbours, listTrajectories, trajectoryFacets } from './list.ts';
export { trajectoryListQuerySchema, trajectoryListFromParams, trajectoryListSearch, type TrajectoryListQuery, hasFilters } from './list-query.ts';
export { type TrajectoryNeighbours, type TrajectoryFacets, type TrajectoryListItem } from './types.ts';
export { describeReason, type SuspicionReason } from './suspicion.ts';
export { compareTrajectories, DifferentVersionsError, type AlignedTurn, type TrajectoryComparison } from './compare.ts';
export { type TrajectoryListPage } from './types.ts';
