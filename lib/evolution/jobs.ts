// Evolution as a queued job: the workers evolve a lineage by a number of validated generations.
import { z } from 'zod';
import { enqueue, type JobWriter } from '../queue/index.ts';
import type { Job } from '../queue/index.ts';

export const EVOLVE_JOB = 'evolve';

export const evolveJobPayload = z.object({
  lineageId: z.string().min(1),
  generations: z.number().int().min(1).max(100),
});

export type EvolveJobPayload = z.infer<typeof evolveJobPayload>;

export function enqueueEvolution(db: JobWriter, payload: EvolveJobPayload, options: { dedupeKey?: string } = {}): Promise<Job> {
  // Long and background: below validations, which block review.
  return enqueue(db, EVOLVE_JOB, evolveJobPayload.parse(payload), { priority: 0, maxAttempts: 3, dedupeKey: options.dedupeKey });
}

export const REVALIDATE_JOB = 'revalidate';

export const revalidateJobPayload = z.object({
  generationId: z.string().min(1),
  budgetFactor: z.number().int().min(2).max(16),
});

export type RevalidateJobPayload = z.infer<typeof revalidateJobPayload>;

// A person chose the retry exit of a held generation and waits on it: ahead of evolution. Not
// retried by the queue: a failure puts the generation back in needs-attention with why.
export function enqueueRevalidation(db: JobWriter, payload: RevalidateJobPayload, options: { dedupeKey?: string } = {}): Promise<Job> {
  return enqueue(db, REVALIDATE_JOB, revalidateJobPayload.parse(payload), { priority: 5, maxAttempts: 1, dedupeKey: options.dedupeKey });
}

export const REVISE_JOB = 'revise';

export const reviseJobPayload = z.object({
  generationId: z.string().min(1),
  comment: z.string().min(1).max(20_000),
  // How many generations the request superseded: evolved again from the revision once it settles.
  rebuild: z.number().int().min(0).max(100).default(0),
});

export type ReviseJobPayload = z.input<typeof reviseJobPayload>;

// A reviewer is waiting on it: ahead of background evolution.
export function enqueueRevision(db: JobWriter, payload: ReviseJobPayload, options: { dedupeKey?: string } = {}): Promise<Job> {
  return enqueue(db, REVISE_JOB, reviseJobPayload.parse(payload), { priority: 5, maxAttempts: 3, dedupeKey: options.dedupeKey });
}
