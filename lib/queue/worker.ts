import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.ts';
import type { BackoffPolicy } from './backoff.ts';
import { claimJob } from './claim.ts';
import { complete, deadLetter, fail, heartbeat, release } from './lease.ts';
import { LeaseLostError, systemClock, type ClaimedJob, type Clock } from './types.ts';

export interface JobContext {
  job: ClaimedJob;
  /** Aborted when the worker shuts down or loses the lease; long handlers should stop early. */
  signal: AbortSignal;
}

// `any` so handlers can declare their payload's shape; it is parsed JSON and worth validating.
export type JobHandler = (payload: any, context: JobContext) => Promise<unknown>;

export interface WorkerOptions {
  db: Db;
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
  const { db, signal } = options;
  const workerId = options.workerId ?? defaultWorkerId();
  const concurrency = options.concurrency ?? 1;
  const leaseMs = options.leaseMs ?? 60_000;
  const pollMs = options.pollMs ?? 1_000;
  const logError = options.logError ?? ((message, error) => console.error(`[worker ${workerId}] ${message}`, error));
  const inFlight = new Set<Promise<void>>();
  const wakeUp = new Wakeup();

  while (!signal?.aborted) {
    let claimed: ClaimedJob | null = null;
    if (inFlight.size < concurrency) {
      try {
        claimed = await claimJob(db, { workerId, leaseMs, now: options.now });
      } catch (error) {
        logError('claiming a job failed', error);
      }
    }
    if (claimed) {
      const running = runJob(claimed, { ...options, leaseMs, logError }).finally(() => {
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

type RunOptions = WorkerOptions & { leaseMs: number; logError: NonNullable<WorkerOptions['logError']> };

async function runJob(job: ClaimedJob, options: RunOptions): Promise<void> {
  const { db, logError, now } = options;
  const handler = Object.hasOwn(options.handlers, job.kind) ? options.handlers[job.kind] : undefined;
  try {
    if (options.signal?.aborted) {
      await release(db, job);
      return;
    }
    if (!handler) {
      const known = Object.keys(options.handlers).join(', ') || 'none';
      await deadLetter(db, job, new Error(`No handler for job kind "${job.kind}" (this worker handles: ${known})`), { now });
      return;
    }
    const outcome = await runHandlerWithHeartbeats(job, handler, options);
    if (outcome.ok) await complete(db, job, outcome.result, { now });
    else if (options.signal?.aborted) await release(db, job);
    else await fail(db, job, outcome.error, { now, backoff: options.backoff });
  } catch (error) {
    logError(`settling job ${job.id} (${job.kind}) failed`, error);
  }
}

type Outcome = { ok: true; result: unknown } | { ok: false; error: unknown };

async function runHandlerWithHeartbeats(job: ClaimedJob, handler: JobHandler, options: RunOptions): Promise<Outcome> {
  const { db, leaseMs, logError, now } = options;
  const leaseLost = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, leaseLost.signal]) : leaseLost.signal;
  let lastHeartbeat: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    lastHeartbeat = heartbeat(db, job, { leaseMs, now }).then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof LeaseLostError) leaseLost.abort(error);
        logError(`heartbeat for job ${job.id} failed`, error);
      },
    );
  }, Math.max(1, Math.floor(leaseMs / 3)));
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
