// The synthesiser plays every generative role of the two loops (docs/method.md §4): the proposer
// and the plan reviewer of Loop 1, the modifier of Loop 2, and the judge of LLM rubric items.
// Two implementations: procedural (offline, deterministic) and anthropic (Claude).
import type { Residual } from '../env/index.ts';
import type { TaskBundle } from '../bundle/index.ts';
import { RefusedError, type DomainErrorOptions } from '../errors/index.ts';
import type { Axis, Effort, Sequence, SequenceEdit } from '../sequence/index.ts';

export type { FileChange, Residual } from '../env/index.ts';

// The environment a generation starts from.
export interface ParentEnvironment {
  versionId: string;
  bundle: TaskBundle;
  sequence: Sequence;
}

// A rubric item as the synthesiser sees it (see lib/rubric).
export interface RubricItemView {
  id: string; // RubricItem row id (one version of one item)
  key: string;
  title: string;
  description: string;
  question: string | null; // for the LLM judge
  check: string | null; // executable shell predicate
  appliesTo: 'plan' | 'environment' | 'both';
}

export interface Plan {
  edit: SequenceEdit;
  child: Sequence; // the parent sequence with the edit applied
  rationale: string; // the proposer's stated reason, shown to reviewers
}

export interface ProposeInput {
  parent: ParentEnvironment;
  axis: Axis;
  effort: Effort;
  seed: number; // deterministic per lineage, generation and round
  rubric: RubricItemView[];
  feedback: string[]; // the plan reviewer's reasons from earlier rounds
  minGain: number; // the child's D must exceed the parent's by more than this (the plan gate's margin)
}

// Thrown by a proposer that cannot make the asked-for edit at all (not a plan a reviewer could
// send back): the plan loop records the generation as failed with this message.
export class ProposalRefused extends RefusedError {
  constructor(message: string, options: DomainErrorOptions = {}) {
    super(message, { code: 'proposal_refused', ...options });
  }
}

// Thrown by a proposer that finds no legal edit on the axis raising D by the margin: a state of
// the lineage (a fixed-axis lineage stops, a mixed one skips the axis), not a failure.
export class AxisExhausted extends ProposalRefused {
  constructor(
    readonly axis: Axis,
    message: string,
  ) {
    super(message, { code: 'axis_exhausted', details: { axis } });
  }
}

// An answer a synthesiser could not turn into a valid plan, review or residual even after its
// own corrective turn. The loop that asked records it as a sent-back round with these problems.
export class InvalidAnswer extends RefusedError {
  constructor(
    message: string,
    readonly problems: string[],
  ) {
    super(message, { code: 'invalid_answer', details: { problems } });
  }
}

export interface PlanReviewItem {
  itemId: string;
  verdict: 'passed' | 'failed' | 'unjudged';
  reason: string;
}

export interface PlanReview {
  approved: boolean;
  reasons: string[]; // why it was sent back (empty when approved)
  items: PlanReviewItem[];
}

export interface ReviewPlanInput {
  parent: ParentEnvironment;
  plan: Plan;
  rubric: RubricItemView[];
}

export interface ModifyInput {
  parent: ParentEnvironment;
  // The name the candidate is stored under (its generation's, e.g. "logs-g4"), for what the
  // synthesiser writes into the task, such as the instruction's title; the parent's if absent.
  childName?: string;
  plan: Plan;
  seed: number;
  attempt: number; // 1-based round of Loop 2
  feedback: string[]; // validator output and reviewer comments from earlier rounds
}

export interface ModifyOutput {
  residual: Residual;
  sequence: Sequence; // the candidate's sequence (normally plan.child)
  notes: string; // what the modifier says it did
}

export interface JudgeInput {
  bundle: TaskBundle;
  item: RubricItemView;
}

export type JudgeVerdict = { verdict: 'passed' | 'failed'; explanation: string } | { verdict: 'unjudged'; explanation: string };

export interface Synthesiser {
  readonly name: 'procedural' | 'anthropic';
  // The proposer's first job for an imported seed: read its execution sequence off the task.
  extractSequence(bundle: TaskBundle): Promise<Sequence>;
  propose(input: ProposeInput): Promise<Plan>;
  reviewPlan(input: ReviewPlanInput): Promise<PlanReview>;
  modify(input: ModifyInput): Promise<ModifyOutput>;
  // LLM-judged rubric items; the procedural synthesiser answers 'unjudged', never 'passed'.
  judge(input: JudgeInput): Promise<JudgeVerdict>;
}
