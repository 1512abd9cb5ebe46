// A cross-process lock on one machine (proper-lockfile): whoever creates the lock directory
// holds it, and refreshes its mtime while it does. A lock whose mtime is older than the stale
// period belongs to a holder that crashed or hung, and the next contender takes it over instead
// of blocking forever.
import { lock } from 'proper-lockfile';

const POLL_MS = 500;
// Long enough that a holder on a loaded machine still refreshes in time (every half of it).
export const FILE_LOCK_STALE_MS = 30_000;

export interface FileLockOptions {
  /** How long to wait for another holder before giving up. */
  timeoutMs: number;
  /** How long a lock may go without a refresh before it counts as abandoned. */
  staleMs?: number;
  /** Called once, when the lock is found held by someone else. */
  onWait?: () => void;
  /** Called when this holder's lock was taken over (it could not refresh it in time). */
  onLost?: (err: Error) => void;
}

type Release = () => Promise<void>;

async function tryAcquire(path: string, opts: FileLockOptions): Promise<Release | null> {
  try {
    return await lock(path, {
      lockfilePath: path,
      realpath: false,
      retries: 0,
      stale: opts.staleMs ?? FILE_LOCK_STALE_MS,
      onCompromised: (err) => opts.onLost?.(err),
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') return null;
    throw err;
  }
}

export async function withFileLock<T>(path: string, fn: () => Promise<T>, opts: FileLockOptions): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  let release = await tryAcquire(path, opts);
  if (!release) opts.onWait?.();
  while (!release) {
    if (Date.now() > deadline) throw new Error(`timed out after ${opts.timeoutMs} ms waiting for lock ${path}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    release = await tryAcquire(path, opts);
  }
  try {
    return await fn();
  } finally {
    // A lock already taken over is no longer ours to remove.
    await release().catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ERELEASED' && err.code !== 'ENOTACQUIRED') throw err;
    });
  }
}
