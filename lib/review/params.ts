// Request shapes of the generation routes, beside the review functions they guard.
import { z } from 'zod';
import { DECISIONS } from './types.ts';

export const generationIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+$/, 'not a generation id');
export const generationParamsSchema = z.object({ id: generationIdSchema });

export const decisionBodySchema = z.object({
  decision: z.enum(DECISIONS),
  comment: z.string().max(20_000).default(''),
  revision: z.number().int().min(0),
});

export const commentBodySchema = z.object({
  body: z.string().min(1).max(20_000),
  path: z.string().min(1).max(1_000).optional(),
  line: z.number().int().min(1).optional(),
});

// contentSha256 is the file's content hash as the page showed it (ResidualFileSummary.contentSha256).
export const viewedBodySchema = z.object({ path: z.string().min(1).max(1_000), contentSha256: z.string().regex(/^[0-9a-f]{64}$/), viewed: z.boolean() });

export const diffQuerySchema = z.object({ attempt: z.coerce.number().int().min(1), path: z.string().min(1).max(1_000) });

// Two attempts of one generation, compared from the older candidate to the newer.
export const attemptPairQuerySchema = z.object({ from: z.coerce.number().int().min(1), to: z.coerce.number().int().min(1) });
export const attemptFileDiffQuerySchema = attemptPairQuerySchema.extend({ path: z.string().min(1).max(1_000) });

export const undoBodySchema = z.object({ reviewId: z.string().min(1).max(64) });
