// What a reviewer may file and what a lead may turn into a rubric item, validated once here
// for the server actions, the route handlers and the CLI alike.
import { z } from 'zod';

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const VALIDATOR_KINDS = ['oracle', 'invalid-test', 'rubric', 'plan-review'] as const;
// Filed open; a lead converts it into a rubric item or dismisses it (convert.ts), once.
export const MissedIssueState = { open: 'open', converted: 'converted', dismissed: 'dismissed' } as const;
export const MISSED_ISSUE_STATES = [MissedIssueState.open, MissedIssueState.converted, MissedIssueState.dismissed] as const;
export const ITEM_SCOPES = ['global', 'lineage'] as const;
export const ITEM_APPLIES_TO = ['environment', 'plan', 'both'] as const;

export type Severity = (typeof SEVERITIES)[number];
export type ValidatorKind = (typeof VALIDATOR_KINDS)[number];
export type MissedIssueState = (typeof MissedIssueState)[keyof typeof MissedIssueState];

// A check is a shell predicate run once per bundle; anything longer than this is a program,
// not a predicate, and belongs in a reviewed built-in item.
export const CHECK_MAX_BYTES = 4096;
export const QUESTION_MAX_CHARS = 2000;

// An empty form field means "none".
const optionalText = (schema: z.ZodType<string, string>) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());

// Browsers submit a textarea's lines ending in CRLF; bash would read the \r as part of
// every command and value, so a check is stored with plain LF line ends.
const checkSchema = z
  .string()
  .transform((s) => s.replace(/\r\n?/g, '\n'))
  .refine((s) => s.trim().length > 0, 'the check is empty')
  .refine((s) => Buffer.byteLength(s, 'utf8') <= CHECK_MAX_BYTES, `the check is longer than ${CHECK_MAX_BYTES} bytes`)
  .refine((s) => !s.includes('\0'), 'the check contains a NUL byte');

export const fileMissedIssueSchema = z.object({
  title: z.string().trim().min(3, 'give a title of at least 3 characters').max(200),
  description: z.string().trim().min(1, 'describe what is wrong').max(20_000),
  severity: z.enum(SEVERITIES),
  validatorKind: z.enum(VALIDATOR_KINDS),
  check: optionalText(checkSchema),
  question: optionalText(z.string().trim().max(QUESTION_MAX_CHARS)),
});

// Filed over HTTP: the fields and the generation they are about.
export const fileMissedIssueRequestSchema = fileMissedIssueSchema.extend({ generationId: z.string().min(1).max(64) });

export type FileMissedIssueInput = z.input<typeof fileMissedIssueSchema>;

// The lead's edited item. Key is optional: by default it is derived from the title.
export const convertMissedIssueSchema = z
  .object({
    key: optionalText(
      z
        .string()
        .trim()
        .max(80)
        .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a key is lowercase words joined by hyphens'),
    ),
    title: z.string().trim().min(3).max(200),
    description: z.string().trim().min(1).max(20_000),
    check: optionalText(checkSchema),
    question: optionalText(z.string().trim().max(QUESTION_MAX_CHARS)),
    scope: z.enum(ITEM_SCOPES),
    appliesTo: z.enum(ITEM_APPLIES_TO),
    activate: z.boolean().default(false),
  })
  .refine((v) => v.check !== undefined || v.question !== undefined, {
    message: 'a rubric item needs an executable check or a question for the LLM judge',
    path: ['check'],
  });

export type ConvertMissedIssueInput = z.input<typeof convertMissedIssueSchema>;

export const missedIssueFilterSchema = z.object({
  state: z.enum(MISSED_ISSUE_STATES).optional(),
  severity: z.enum(SEVERITIES).optional(),
  validatorKind: z.enum(VALIDATOR_KINDS).optional(),
  generationId: z.string().min(1).max(64).optional(),
});

export type MissedIssueFilter = z.infer<typeof missedIssueFilterSchema>;
