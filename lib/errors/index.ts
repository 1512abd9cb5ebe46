// The domain's errors: one small hierarchy every lib module throws from, so each caller (a route,
// a server action, the CLI) tells a missing thing from a conflict or a refusal the same way.
// `code` is the machine-readable name a client sees; `details` are extra fields it may read.
// Anything that is not a DomainError is a bug, shown to a user only as a generic failure.
// Every error class in lib extends one of the categories below (eslint.config.mjs enforces it).

export interface DomainErrorOptions {
  code?: string;
  details?: Record<string, unknown>;
  cause?: unknown; // the failure underneath (a network error, a parse error), kept for the log
}

export abstract class DomainError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown>;

  constructor(message: string, defaultCode: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? defaultCode;
    this.details = options.details ?? {};
  }
}

/** The thing asked about does not exist. */
export class NotFoundError extends DomainError {
  constructor(message: string, options?: DomainErrorOptions) {
    super(message, 'not_found', options);
  }
}

/** The input is malformed or out of range, before any rule of the domain is asked. */
export class InvalidInputError extends DomainError {
  constructor(message: string, options?: DomainErrorOptions) {
    super(message, 'bad_request', options);
  }
}

/** The caller may not do this (their role, or this thing is not theirs to touch). */
export class ForbiddenError extends DomainError {
  constructor(message: string, options?: DomainErrorOptions) {
    super(message, 'forbidden', options);
  }
}

/** The thing is in a state that does not allow this now (it moved on, or was already done). */
export class ConflictError extends DomainError {
  constructor(message: string, options?: DomainErrorOptions) {
    super(message, 'conflict', options);
  }
}

/** Well-formed, but a rule of the domain refuses it (a rejection without a reason, …). */
export class RefusedError extends DomainError {
  constructor(message: string, options?: DomainErrorOptions) {
    super(message, 'refused', options);
  }
}

/** It existed and is no longer given out (a version flagged as a reward hack, …). */
export class GoneError extends DomainError {
  constructor(message: string, options?: DomainErrorOptions) {
    super(message, 'gone', options);
  }
}

/**
 * What this needs from the system is missing, misconfigured or not answering (the Docker engine,
 * a base image, a model API or its key, a setting): not the caller's doing. The message is for the
 * operator, so a web client is told only that the service is unavailable and the log gets the rest.
 */
export class UnavailableError extends DomainError {
  constructor(message: string, options?: DomainErrorOptions) {
    super(message, 'unavailable', options);
  }
}
