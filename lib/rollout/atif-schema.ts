// ATIF (Agent Trajectory Interchange Format, Harbor RFC 0001) v1.4 as a zod schema: the fields
// the spec requires, typed; every other field is kept (loose objects), as the spec allows.
import { z } from 'zod';

export const ATIF_VERSION = 'ATIF-v1.4';

const count = z.number().int().nonnegative();

export const atifToolCallSchema = z.looseObject({
  tool_call_id: z.string().min(1),
  function_name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
});

export const atifObservationSchema = z.looseObject({
  results: z.array(z.looseObject({ source_call_id: z.string().nullish(), content: z.unknown() })),
});

export const atifStepSchema = z.looseObject({
  step_id: z.number().int().positive(),
  timestamp: z.string().optional(),
  source: z.enum(['system', 'user', 'agent']),
  message: z.string(),
  reasoning_content: z.string().optional(),
  tool_calls: z.array(atifToolCallSchema).optional(),
  observation: atifObservationSchema.optional(),
  metrics: z
    .looseObject({ prompt_tokens: count.optional(), completion_tokens: count.optional(), cached_tokens: count.optional(), cost_usd: z.number().optional() })
    .optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
});

export const atifSchema = z
  .looseObject({
    schema_version: z.string().regex(/^ATIF-v1\.\d+$/, 'expected "ATIF-v1.N"'),
    session_id: z.string().min(1),
    agent: z.looseObject({ name: z.string().min(1), version: z.string().min(1), model_name: z.string().optional() }),
    steps: z.array(atifStepSchema).min(1),
    notes: z.string().optional(),
    final_metrics: z
      .looseObject({
        total_prompt_tokens: count.optional(),
        total_completion_tokens: count.optional(),
        total_cached_tokens: count.optional(),
        total_cost_usd: z.number().optional(),
        total_steps: count.optional(),
      })
      .optional(),
    extra: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((doc, ctx) => {
    doc.steps.forEach((step, i) => {
      if (step.step_id !== i + 1)
        ctx.addIssue({ code: 'custom', path: ['steps', i, 'step_id'], message: `expected ${i + 1} (step ids count from 1 without gaps)` });
    });
  });

export type AtifStep = z.infer<typeof atifStepSchema>;
export type AtifDocument = z.infer<typeof atifSchema>;

// Envolve's own fields under extra.envolve, required to store a trajectory here.
export const envolveExtraSchema = z.looseObject({
  environment_version: z.string().min(1),
  image_id: z.string().nullish(),
  policy: z.string().min(1).optional(),
  policy_version: z.string().min(1).optional(),
  simulated: z.boolean().default(false),
  seed: z.number().int(),
  attempt: z.number().int().positive(),
  group_id: z.string().nullish(),
  generation_id: z.string().nullish(),
  lineage_id: z.string().nullish(),
  status: z.enum(['running', 'completed', 'timed-out', 'reward-missing', 'error']),
  reward: z.number().nullish(),
  passed: z.boolean().nullish(),
  timed_out: z.boolean().default(false),
  turns: count.optional(),
  duration_ms: count.default(0),
  agent_duration_ms: count.default(0),
  verifier_duration_ms: count.default(0),
  verifier_output: z.string().default(''),
  verifier_exit_code: z.number().int().nullish(),
  reward_detail: z.record(z.string(), z.number()).nullish(),
  ctrf: z.unknown().optional(),
  changed_files: z.array(z.strictObject({ path: z.string(), size: count, blobHash: z.string() })).default([]),
  touched_protected: z.boolean().default(false),
  error: z.string().nullish(),
  created_at: z.iso.datetime().optional(),
  finished_at: z.iso.datetime().nullish(),
});

export type EnvolveExtra = z.infer<typeof envolveExtraSchema>;

export function formatIssues(error: z.ZodError, prefix: (string | number)[] = []): string {
  return error.issues
    .map((i) => {
      const path = [...prefix, ...i.path].map((p, n) => (typeof p === 'number' ? `[${p}]` : `${n ? '.' : ''}${String(p)}`)).join('');
      return `${path || '(root)'}: ${i.message}`;
    })
    .join('; ');
}
