// Errors the calibration functions raise for the caller to turn into a clear answer: the route
// handlers map them to HTTP statuses, the CLI prints their message.

/** The request cannot be satisfied as asked (bad scope, too few trajectories, unknown annotator). */
export class CalibrationInputError extends Error {
  override name = 'CalibrationInputError';
}

/** The set, item or annotator does not exist, or the annotator is not on this set. */
export class CalibrationNotFoundError extends Error {
  override name = 'CalibrationNotFoundError';
}

/** The actor may not do this to this item (not theirs, held by someone else, already adjudicated). */
export class CalibrationConflictError extends Error {
  override name = 'CalibrationConflictError';
}
