// The per-call user messages, one per role. Everything that varies between calls lives here,
// after the cached prefix: the sequence, the plan, the feedback. The task's files are not here:
// they are the prefix's last cached block (prefix.ts), shared by every call about the same task.
import type { ModifyInput, ProposeInput, ReviewPlanInput, RubricItemView } from '../types.ts';

// Validator output can be long; the model needs its gist, not megabytes of logs.
const MAX_FEEDBACK_CHARS = 8000;

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function feedbackSection(title: string, feedback: string[]): string {
  if (feedback.length === 0) return '';
  const items = feedback.map((f, i) => {
    const clipped = f.length > MAX_FEEDBACK_CHARS ? `${f.slice(0, MAX_FEEDBACK_CHARS)}\n… (${f.length - MAX_FEEDBACK_CHARS} more characters cut)` : f;
    return `<feedback n="${i + 1}">\n${clipped}\n</feedback>`;
  });
  return `\n# ${title}\n${items.join('\n')}\n`;
}

export function extractPrompt(): string {
  return `Role: extractor.
Read the Harbor task in the system prompt's Task files block and call extract_sequence with its scenario–skill execution sequence: the steps an agent must take to solve it, in execution order, each with the ids of the earlier steps whose outputs it consumes. Name scenarios and skills with short, general phrases that would read the same in other environments. Use ids s1, s2, … in order.`;
}

export function proposePrompt(input: ProposeInput): string {
  return `Role: proposer.
Requested axis: ${input.axis}. Requested effort: ${input.effort}. Variation seed: ${input.seed} (use it to choose among equally good edits).
Propose ONE sequence-level edit of the parent environment along the ${input.axis} axis within ${input.effort} effort, and call propose_plan with the edit, the full child sequence and your rationale. The edit must be implementable as changes to the task's files, keep the task solvable by its reference solution, and keep the verifier strict.
The edit must make the environment harder: the child's off-policy difficulty D (expected agent turns plus scenario novelty plus skill rarity) must exceed the parent's by more than ${input.minGain}. A plan that does not is sent back with both numbers. If no legal edit along this axis within this effort can do that, say so in \`exhausted\` instead of proposing a sideways edit.

# Parent sequence
${json(input.parent.sequence)}
${feedbackSection('The plan reviewer sent earlier plans back for these reasons', input.feedback)}
The parent task's files are in the system prompt's Task files block.`;
}

export function reviewPrompt(input: ReviewPlanInput, planItems: RubricItemView[], mechanicalViolations: string[]): string {
  const items = planItems.length > 0 ? planItems.map((i) => `- ${i.id} (${i.key})`).join('\n') : '(none: judge against the method alone)';
  const mechanical = mechanicalViolations.length > 0 ? mechanicalViolations.map((v) => `- ${v}`).join('\n') : '(none)';
  return `Role: plan reviewer.
Review the plan below for the parent environment and call review_plan. Give one verdict per rubric item listed here (ids from the catalogue); approve only when every one passes.

# Rubric items that apply to plans
${items}

# Mechanical check of the edit (axis and effort rules; any violation means the plan cannot be approved)
${mechanical}

# Parent sequence
${json(input.parent.sequence)}

# The plan
Edit: ${json(input.plan.edit)}
Child sequence: ${json(input.plan.child)}
Rationale: ${input.plan.rationale}`;
}

export function modifyPrompt(input: ModifyInput): string {
  return `Role: modifier. Attempt ${input.attempt}.
Implement the approved plan as a residual over the parent task and call write_residual. Give whole files: the complete new content of every file you add or modify. Keep the reference solution, the data and the verifier consistent with each other and with the instruction.

# The approved plan
Edit: ${json(input.plan.edit)}
Rationale: ${input.plan.rationale}

# Parent sequence
${json(input.parent.sequence)}

# Child sequence (what the candidate must implement)
${json(input.plan.child)}
${feedbackSection('Earlier attempts failed: validator output and reviewer comments', input.feedback)}
The parent task's files are in the system prompt's Task files block.`;
}

export function judgePrompt(item: RubricItemView): string {
  return `Role: rubric judge.
Judge the task in the system prompt's Task files block against one rubric item and call judge_rubric_item: passed or failed, with the evidence.

# The rubric item
${item.key} — ${item.title} (id ${item.id})
${item.description.trim()}
Question: ${item.question?.trim() ?? ''}`;
}
