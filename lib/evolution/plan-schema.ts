// A stored plan (PlanRound.plan) read back: the edit, the child sequence and the rationale.
import { z } from 'zod';
import { parseSequence } from '../sequence/index.ts';
import type { Plan } from '../synth/index.ts';

export const planSchema: z.ZodType<Plan> = z.object({
  edit: z.object({
    axis: z.enum(['length', 'scenario', 'skill']),
    effort: z.enum(['low', 'high', 'max']),
    inserted: z.array(z.string()),
    replaced: z.array(z.object({ stepId: z.string(), field: z.enum(['scenario', 'skill']), from: z.string(), to: z.string() })),
  }),
  child: z.unknown().transform((value) => parseSequence(value)),
  rationale: z.string(),
}) as unknown as z.ZodType<Plan>;
