// The tools Claude answers through, one per role. Each tool's input schema is written once in
// zod: the JSON Schema the API receives is generated from it and every answer is parsed with it.
// Every request carries ALL tools in this fixed order, whichever role it plays (tool_choice
// picks the role), so the tool definitions are one byte-identical, cacheable prefix.
// Step names: the schema Claude receives lists the reference catalogue's names as enums, so D
// prices what it names; the schema answers are parsed with takes any name, and a name outside the
// catalogue is mapped to the nearest one afterwards (catalogue-names.ts), the mapping shown.
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import { CATALOGUE_SCENARIOS, CATALOGUE_SKILLS } from './catalogue-names.ts';

interface NameSchemas {
  scenario: z.ZodType<string>;
  skill: z.ZodType<string>;
}

const FREE_NAMES: NameSchemas = { scenario: z.string().min(1), skill: z.string().min(1) };
const CATALOGUE_NAMES: NameSchemas = {
  scenario: z.enum(CATALOGUE_SCENARIOS as [string, ...string[]]),
  skill: z.enum(CATALOGUE_SKILLS as [string, ...string[]]),
};

function stepSchema(names: NameSchemas) {
  return z.object({
    id: z.string().min(1).describe('Stable step id, e.g. "s3". A kept or edited step keeps its id; an inserted step gets a new, unused one.'),
    scenario: names.scenario.describe(
      'σ: the situation the step works in, a reference catalogue name: domain[+layout][+noise], e.g. "payments-ledger" or "web-access-log+csv".',
    ),
    skill: names.skill.describe('κ: the terminal skill the step exercises, a reference catalogue name, e.g. "join-tables" or "jq-query".'),
    dependsOn: z.array(z.string()).describe('Ids of EARLIER steps whose outputs this step consumes.'),
    summary: z.string().min(1).describe('One sentence on what the step does.'),
  });
}

const stepsSchema = (names: NameSchemas) => z.array(stepSchema(names)).min(1).describe('The steps in execution order.');

const extractSequenceSchema = (names: NameSchemas) => z.object({ steps: stepsSchema(names) });
export const extractSequenceInput = extractSequenceSchema(FREE_NAMES);

const proposePlanSchema = (names: NameSchemas) =>
  z.object({
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
    child: z.object({ steps: stepsSchema(names) }).describe('The FULL child sequence: the parent sequence with the edit applied.'),
    rationale: z.string().min(1).describe('Why this edit makes the environment harder while keeping it solvable and verifiable.'),
    exhausted: z
      .string()
      .optional()
      .describe(
        'Only when NO legal edit along the axis within the effort makes the environment harder: why not (give the parent sequence as child and an empty edit). Omit otherwise.',
      ),
  });
export const proposePlanInput = proposePlanSchema(FREE_NAMES);

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

// `advertised`: the schema Claude receives, where it differs from the one answers are parsed with.
const TOOL_SPECS = {
  extract_sequence: {
    schema: extractSequenceInput,
    advertised: extractSequenceSchema(CATALOGUE_NAMES),
    description: "Return the task's scenario–skill execution sequence: the steps an agent must take to solve it, with their dependencies.",
  },
  propose_plan: {
    schema: proposePlanInput,
    advertised: proposePlanSchema(CATALOGUE_NAMES),
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

export const TOOLS: Tool[] = (Object.keys(TOOL_SPECS) as ToolName[]).map((name) => {
  const spec: { schema: z.ZodType; advertised?: z.ZodType; description: string } = TOOL_SPECS[name];
  return { name, description: spec.description, input_schema: inputSchema(spec.advertised ?? spec.schema) };
});

export type ParsedInput<T> = { ok: true; value: T } | { ok: false; problems: string[] };

export function parseToolInput<N extends ToolName>(name: N, input: unknown): ParsedInput<ToolInput<N>> {
  const schema: z.ZodType = TOOL_SPECS[name].schema;
  const parsed = schema.safeParse(input);
  // The schema is the one ToolInput<N> is inferred from.
  if (parsed.success) return { ok: true, value: parsed.data as ToolInput<N> };
  return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(input)'}: ${issue.message}`) };
}
