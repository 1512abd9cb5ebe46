// The tools Claude answers through, one per role. Each tool's input schema is written once in
// zod: the JSON Schema the API receives is generated from it and every answer is parsed with it.
// Every request carries ALL tools in this fixed order, whichever role it plays (tool_choice
// picks the role), so the tool definitions are one byte-identical, cacheable prefix.
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';

const step = z.object({
  id: z.string().min(1).describe('Stable step id, e.g. "s3". A kept or edited step keeps its id; an inserted step gets a new, unused one.'),
  scenario: z.string().min(1).describe('σ: the situation the step works in, as a short noun phrase (e.g. "payments ledger").'),
  skill: z.string().min(1).describe('κ: the terminal skill the step exercises, as a short phrase (e.g. "joins with join/awk").'),
  dependsOn: z.array(z.string()).describe('Ids of EARLIER steps whose outputs this step consumes.'),
  summary: z.string().min(1).describe('One sentence on what the step does.'),
});

const sequence = z.object({ steps: z.array(step).min(1).describe('The steps in execution order.') });

export const extractSequenceInput = z.object({
  steps: sequence.shape.steps,
});

export const proposePlanInput = z.object({
  edit: z
    .object({
      axis: z.enum(['length', 'scenario', 'skill']),
      effort: z.enum(['low', 'high', 'max']),
      inserted: z.array(z.string()).describe('Ids of the steps the edit adds (length axis); empty otherwise.'),
      replaced: z
        .array(
          z.object({
            stepId: z.string(),
            field: z.enum(['scenario', 'skill']),
            from: z.string(),
            to: z.string(),
          }),
        )
        .describe('Scenario or skill replacements of existing steps; empty for a length edit.'),
    })
    .describe('The sequence-level edit, exactly as the child differs from the parent.'),
  child: sequence.describe('The FULL child sequence: the parent sequence with the edit applied.'),
  rationale: z.string().min(1).describe('Why this edit makes the environment harder while keeping it solvable and verifiable.'),
  exhausted: z
    .string()
    .optional()
    .describe(
      'Only when NO legal edit along the axis within the effort makes the environment harder: why not (give the parent sequence as child and an empty edit). Omit otherwise.',
    ),
});

export const reviewPlanInput = z.object({
  approved: z.boolean().describe('True only when every rubric item passes.'),
  reasons: z.array(z.string()).describe('Why the plan is sent back, each reason actionable; empty when approved.'),
  items: z
    .array(
      z.object({
        itemId: z.string().describe('The rubric item id, from the catalogue.'),
        verdict: z.enum(['passed', 'failed']),
        reason: z.string().min(1),
      }),
    )
    .describe('One verdict per rubric item that applies to plans.'),
});

export const writeResidualInput = z.object({
  changes: z
    .array(
      z.object({
        op: z.enum(['add', 'modify', 'delete']),
        path: z.string().min(1).describe('POSIX path relative to the task root, e.g. "tests/test.sh". No leading "/", no "..".'),
        content: z.string().optional().describe('The COMPLETE new UTF-8 text of the file (add and modify). Omit for delete.'),
        executable: z.boolean().optional().describe('Whether the file is executable. Defaults: false for add, unchanged for modify.'),
      }),
    )
    .min(1)
    .describe('File edits from the parent to the candidate. Text files only: binary files cannot be written this way.'),
  notes: z.string().min(1).describe('What you changed and why, for the reviewers.'),
});

export const judgeRubricItemInput = z.object({
  verdict: z.enum(['passed', 'failed']),
  explanation: z.string().min(1).describe('The evidence: name the files and lines the verdict rests on.'),
});

export const estimatePriorInput = z.object({
  probability: z.number().gt(0).lt(1).describe('The reference probability, strictly between 0 and 1.'),
  rationale: z.string().min(1).describe('One or two sentences on how common this is and why.'),
});

const TOOL_SPECS = {
  extract_sequence: {
    schema: extractSequenceInput,
    description: "Return the task's scenario–skill execution sequence: the steps an agent must take to solve it, with their dependencies.",
  },
  propose_plan: {
    schema: proposePlanInput,
    description: 'Propose a sequence-level edit of the parent environment along the requested axis, within the requested effort.',
  },
  review_plan: {
    schema: reviewPlanInput,
    description: 'Review a proposed plan against the rubric items that apply to plans; approve it or send it back with reasons.',
  },
  write_residual: {
    schema: writeResidualInput,
    description: 'Write the environment residual that implements the plan, as whole-file edits over the parent task.',
  },
  judge_rubric_item: {
    schema: judgeRubricItemInput,
    description: 'Judge one natural-language rubric item against the task files.',
  },
  estimate_prior: {
    schema: estimatePriorInput,
    description: 'Estimate a reference probability for a scenario, or for a skill given a scenario.',
  },
} as const;

export type ToolName = keyof typeof TOOL_SPECS;
export type ToolInput<N extends ToolName> = z.infer<(typeof TOOL_SPECS)[N]['schema']>;

function inputSchema(schema: z.ZodType): Tool.InputSchema {
  // The $schema dialect marker is not part of a tool definition.
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema) as Record<string, unknown>;
  return { ...json, type: 'object' };
}

export const TOOLS: Tool[] = (Object.keys(TOOL_SPECS) as ToolName[]).map((name) => ({
  name,
  description: TOOL_SPECS[name].description,
  input_schema: inputSchema(TOOL_SPECS[name].schema),
}));

export type ParsedInput<T> = { ok: true; value: T } | { ok: false; problems: string[] };

export function parseToolInput<N extends ToolName>(name: N, input: unknown): ParsedInput<ToolInput<N>> {
  const schema: z.ZodType = TOOL_SPECS[name].schema;
  const parsed = schema.safeParse(input);
  // The schema is the one ToolInput<N> is inferred from.
  if (parsed.success) return { ok: true, value: parsed.data as ToolInput<N> };
  return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(input)'}: ${issue.message}`) };
}
