// Failures a reviewer can act on, in the domain hierarchy (lib/errors): a conflict, a refused
// decision (a missing generation is lib/evolution/errors.ts's GenerationNotFoundError).
import { ConflictError, RefusedError } from '../errors/index.ts';

export interface LastChange {
  action: string;
  actorEmail: string;
  at: string; // ISO time
}

// The generation moved on since the reviewer rendered it: deciding now would overwrite a
// decision (or a new revision) they never saw.
export class RevisionConflictError extends ConflictError {
  constructor(
    readonly current: { state: string; revision: number },
    readonly lastChange: LastChange | null,
  ) {
    const by = lastChange ? ` (${lastChange.action} by ${lastChange.actorEmail} at ${lastChange.at})` : '';
    super(
      `This generation changed while you were reviewing it: it is now ${current.state} at revision ${current.revision}${by}. Reload to see the current state.`,
      {
        details: { current, lastChange },
      },
    );
  }
}

export class DecisionRefusedError extends RefusedError {}
