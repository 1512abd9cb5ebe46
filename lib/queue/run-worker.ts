import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/index.ts';
import type { BackoffPolicy } from './backoff.ts';
import { embeddedQueue, type QueueBackend } from './backend.ts';
import { LeaseLostError, type ClaimedJob, type Clock } from './types.ts';
import { logger } from '../log/index.ts';

export interface JobContext {
  job: ClaimedJob;
  /** Aborted when the worker shuts down or loses the lease; long handlers should stop early. */
  signal: AbortSignal;
}

// `any` so handlers can declare their payload's shape; it is parsed JSON and worth validating.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type JobHandler = (payload: any, context: JobContext) => Promise<unknown>;

// How long an idle worker waits before looking for a job again, unless one is enqueued in its process.
export const DEFAULT_POLL_MS = 1_000;

export interface WorkerOptions {
  db: Db;
  /** Where jobs come from; default the embedded queue on `db`. */
  queue?: QueueBackend;
  handlers: Record<string, JobHandler>;
  workerId?: string;
  concurrency?: number;
  leaseMs?: number;
  pollMs?: number;
  /** Stops claiming; in-flight handlers see their signal aborted, and are completed if they finish or released if they throw. */
  signal?: AbortSignal;
  backoff?: BackoffPolicy;
  now?: Clock;
  logError?: (message: string, error: unknown) => void;
}

export function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** Claims and runs jobs until `signal` aborts; resolves once every in-flight job is settled. */
export async function runWorker(options: WorkerOptions): Promise<void> {
  const { signal } = options;
  const queue = options.queue ?? embeddedQueue(options.db);
  const workerId = options.workerId ?? defaultWorkerId();
  const concurrency = options.concurrency ?? 1;
  const leaseMs = options.leaseMs ?? 60_000;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const logError = options.logError ?? ((message, error) => logger().error(message, { workerId, err: error }));
  const inFlight = new Set<Promise<void>>();
  const wakeUp = new Wakeup();

  while (!signal?.aborted) {
    let claimed: ClaimedJob | null = null;
    if (inFlight.size < concurrency) {
      try {
        claimed = await queue.claim(workerId, leaseMs, options.now);
      } catch (error) {
        logError('claiming a job failed', error);
      }
    }
    if (claimed) {
      const running = runJob(claimed, { ...options, queue, leaseMs, logError }).finally(() => {
        inFlight.delete(running);
        wakeUp.trigger();
      });
      inFlight.add(running);
      continue;
    }
    await wakeUp.wait(pollMs, signal);
  }
  await Promise.all(inFlight);
}

type RunOptions = WorkerOptions & { queue: QueueBackend; leaseMs: number; logError: NonNullable<WorkerOptions['logError']> };

async function runJob(job: ClaimedJob, options: RunOptions): Promise<void> {
  const { queue, now } = options;
  const handler = Object.hasOwn(options.handlers, job.kind) ? options.handlers[job.kind] : undefined;
  const settle = (what: string, action: () => Promise<void>) => settleWithRetries(job, what, action, options);
  if (options.signal?.aborted) return settle('release', () => queue.release(job));
  if (!handler) {
    const known = Object.keys(options.handlers).join(', ') || 'none';
    const error = new Error(`No handler for job kind "${job.kind}" (this worker handles: ${known})`);
    return settle('dead-letter', () => queue.deadLetter(job, error, now));
  }
  const outcome = await runHandlerWithHeartbeats(job, handler, options);
  if (outcome.ok) await settle('complete', () => queue.complete(job, outcome.result, now));
  else if (options.signal?.aborted) await settle('release', () => queue.release(job));
  else if (isDeterministic(outcome.error)) await settle('dead-letter', () => queue.deadLetter(job, outcome.error, now));
  else await settle('fail', () => queue.fail(job, outcome.error, options.backoff, now));
}

// An error that says another attempt would fail the same way (an image that does not build) is
// not retried: the job fails once, with that error.
function isDeterministic(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { deterministic?: unknown }).deterministic === true;
}

// A database restart must not throw away a finished job's result: settling is retried for a while.
// A lost lease is final (another worker owns the job now), and so is running out of retries: the
// lease then expires and the job is retried, which handlers are written to survive.
export const SETTLE_RETRY_DELAYS_MS = [250, 500, 1_000, 2_000, 4_000, 8_000, 15_000];

async function settleWithRetries(job: ClaimedJob, what: string, action: () => Promise<void>, options: RunOptions): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await action();
    } catch (error) {
      const delay = SETTLE_RETRY_DELAYS_MS[attempt];
      if (error instanceof LeaseLostError || delay === undefined) {
        options.logError(`${what} of job ${job.id} (${job.kind}) failed`, error);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

type Outcome = { ok: true; result: unknown } | { ok: false; error: unknown };

async function runHandlerWithHeartbeats(job: ClaimedJob, handler: JobHandler, options: RunOptions): Promise<Outcome> {
  const { queue, leaseMs, logError, now } = options;
  const leaseLost = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, leaseLost.signal]) : leaseLost.signal;
  let lastHeartbeat: Promise<void> = Promise.resolve();
  const timer = setInterval(
    () => {
      lastHeartbeat = queue.heartbeat(job, leaseMs, now).then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof LeaseLostError) leaseLost.abort(error);
          logError(`heartbeat for job ${job.id} failed`, error);
        },
      );
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  try {
    return { ok: true, result: await handler(JSON.parse(job.payload), { job, signal }) };
  } catch (error) {
    return { ok: false, error };
  } finally {
    clearInterval(timer);
    // A heartbeat landing after completion would find the lease gone and report a false loss.
    await lastHeartbeat;
  }
}

/** A sleep that ends early when a job slot frees up or the worker is told to stop. */
class Wakeup {
  #wake: (() => void) | undefined;

  trigger(): void {
    this.#wake?.();
  }

  wait(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      this.#wake = done;
    });
  }
}
