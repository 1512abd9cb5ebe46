// Validation as a queued job: what the CLI and the dashboard enqueue and the workers run.
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { enqueue } from '../queue/index.ts';
import type { Job } from '../queue/index.ts';
import { baseImageMappingSchema, type BaseImageMapping } from '../sandbox/index.ts';

export const VALIDATE_JOB = 'validate';

export const validateJobPayload = z.object({
  versionId: z.string().regex(/^[0-9a-f]{64}$/, 'a full environment version id'),
  baseImages: baseImageMappingSchema.optional(),
});

export type ValidateJobPayload = z.infer<typeof validateJobPayload>;

// Validation blocks review, so it goes ahead of background work.
const VALIDATE_PRIORITY = 10;

export function enqueueValidation(db: Db, versionId: string, options: { baseImages?: BaseImageMapping; dedupeKey?: string } = {}): Promise<Job> {
  const payload: ValidateJobPayload = { versionId, baseImages: options.baseImages };
  return enqueue(db, VALIDATE_JOB, payload, { priority: VALIDATE_PRIORITY, maxAttempts: 3, dedupeKey: options.dedupeKey });
}
