export { DEFAULT_BACKOFF, retryDelayMs, type BackoffPolicy } from './backoff.ts';
export { claimJob, type ClaimOptions } from './claim.ts';
export { enqueue, type EnqueueOptions } from './enqueue.ts';
export { formatError } from './format-error.ts';
export { listJobs, queueDepth, type ListJobsOptions } from './inspect.ts';
export { complete, deadLetter, fail, heartbeat, release, type FailOptions } from './lease.ts';
export { LeaseLostError, systemClock, type ClaimedJob, type Clock, type Job, type JobState, type Lease } from './types.ts';
export { defaultWorkerId, runWorker, type JobContext, type JobHandler, type WorkerOptions } from './worker.ts';
