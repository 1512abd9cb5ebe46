// A served environment as a trainer downloads it: the Harbor task tarball of a version the
// servability rule allows. A version held out is refused to the trainer; a flagged one is gone (it
// is no longer given out); one no reviewer approved (awaiting review, rejected, superseded, …) is in
// the wrong state, and the answer names it; an unknown one is not found.
import type { Db } from '../db/index.ts';
import { exportTaskTarball } from '../env/index.ts';
import { ConflictError, ForbiddenError, GoneError, NotFoundError, type DomainError } from '../errors/index.ts';
import { unservableReason, type Unservable } from './servable.ts';

export function downloadRefusedError(unservable: Unservable): DomainError {
  if (unservable.kind === 'unknown_version') return new NotFoundError(unservable.message);
  if (unservable.kind === 'held_out') return new ForbiddenError(unservable.message, { code: unservable.kind });
  if (unservable.kind === 'rejected' || unservable.kind === 'superseded' || unservable.kind === 'unreviewed') {
    return new ConflictError(unservable.message, { code: unservable.kind, details: { state: unservable.state } });
  }
  return new GoneError(unservable.message, { code: unservable.kind });
}

export async function servedTaskTarball(db: Db, versionId: string): Promise<{ name: string; content: Buffer }> {
  const unservable = await unservableReason(db, versionId);
  if (unservable) throw downloadRefusedError(unservable);
  return exportTaskTarball(db, versionId);
}
