// The calibration functions' errors, in the domain hierarchy (lib/errors): routes answer them
// with their status, the CLI prints their message.
import { ConflictError, InvalidInputError, NotFoundError } from '../errors/index.ts';

/** The request cannot be satisfied as asked (bad scope, too few trajectories, unknown annotator). */
export class CalibrationInputError extends InvalidInputError {}

/** The set, item or annotator does not exist, or the annotator is not on this set. */
export class CalibrationNotFoundError extends NotFoundError {}

/** The actor may not do this to this item (not theirs, held by someone else, already adjudicated). */
export class CalibrationConflictError extends ConflictError {}
