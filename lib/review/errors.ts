// Failures a reviewer can act on. Route handlers and server actions map them to answers
// (409 for a conflict, 422 for a refused decision, 404 for a missing generation).

export interface LastChange {
  action: string;
  actorEmail: string;
  at: string; // ISO time
}

// The generation moved on since the reviewer rendered it: deciding now would overwrite a
// decision (or a new revision) they never saw.
export class ConflictError extends Error {
  constructor(
    readonly current: { state: string; revision: number },
    readonly lastChange: LastChange | null,
  ) {
    const by = lastChange ? ` (${lastChange.action} by ${lastChange.actorEmail} at ${lastChange.at})` : '';
    super(`This generation changed while you were reviewing it: it is now ${current.state} at revision ${current.revision}${by}. Reload to see the current state.`);
    this.name = 'ConflictError';
  }
}

export class DecisionRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecisionRefusedError';
  }
}

export class GenerationNotFoundError extends Error {
  constructor(readonly generationId: string) {
    super(`no generation ${generationId}`);
    this.name = 'GenerationNotFoundError';
  }
}
