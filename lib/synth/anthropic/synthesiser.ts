// The Anthropic synthesiser: Claude as proposer, plan reviewer, modifier and rubric judge
// (docs/method.md §4), each role one forced tool call over the shared cached prefix (prefix.ts).
import type { TaskBundle } from '../../bundle/index.ts';
import { checkEdit } from '../../sequence/index.ts';
import type { Sequence } from '../../sequence/index.ts';
import type {
  JudgeInput,
  JudgeVerdict,
  ModifyInput,
  ModifyOutput,
  Plan,
  PlanReview,
  ProposeInput,
  ReviewPlanInput,
  RubricItemView,
  Synthesiser,
} from '../types.ts';
import type { Settings } from '../../config/index.ts';
import { resolveAnthropicConfig, type AnthropicOptions } from './config.ts';
import { interpretExtracted, interpretPlan } from './plan.ts';
import { systemPrefix } from './prefix.ts';
import { renderTaskFiles, type RenderLimits } from './render-files.ts';
import { interpretResidual } from './residual.ts';
import { interpretReview, planRubric } from './review.ts';
import { extractPrompt, judgePrompt, modifyPrompt, proposePrompt, reviewPrompt } from './role-prompts.ts';
import { ClaudeToolClient } from './tool-client.ts';
import type { CallUsage, UsageTotals } from './usage.ts';

export interface AnthropicSynthesiserOptions extends AnthropicOptions {
  // The run's rubric, so the first call already sends the catalogue later calls repeat.
  rubric?: RubricItemView[];
  renderLimits?: RenderLimits;
}

export class AnthropicSynthesiser implements Synthesiser {
  readonly name = 'anthropic' as const;
  private readonly client: ClaudeToolClient;
  private readonly renderLimits: RenderLimits | undefined;
  // The rubric the cached prefix shows. Roles whose input carries no rubric (extract, modify,
  // judge) reuse the latest one, so every call of a run sends the same prefix bytes.
  private catalogue: RubricItemView[];

  constructor(options: AnthropicSynthesiserOptions = {}, fromSettings?: Settings['anthropic']) {
    this.client = new ClaudeToolClient(resolveAnthropicConfig(options, fromSettings));
    this.catalogue = options.rubric ?? [];
    this.renderLimits = options.renderLimits;
  }

  get model(): string {
    return this.client.config.model;
  }

  usage(): UsageTotals {
    return this.client.usage();
  }

  calls(): readonly CallUsage[] {
    return this.client.calls();
  }

  async extractSequence(bundle: TaskBundle): Promise<Sequence> {
    return this.client.call({
      tool: 'extract_sequence',
      system: systemPrefix(this.catalogue, renderTaskFiles(bundle, this.renderLimits).text),
      user: extractPrompt(),
      interpret: interpretExtracted,
    });
  }

  async propose(input: ProposeInput): Promise<Plan> {
    this.catalogue = input.rubric;
    return this.client.call({
      tool: 'propose_plan',
      system: systemPrefix(this.catalogue, renderTaskFiles(input.parent.bundle, this.renderLimits).text),
      user: proposePrompt(input),
      interpret: (answer) => interpretPlan(answer, input.parent.sequence, input.axis, input.effort),
    });
  }

  async reviewPlan(input: ReviewPlanInput): Promise<PlanReview> {
    this.catalogue = input.rubric;
    const items = planRubric(input.rubric);
    const mechanical = checkEdit(input.parent.sequence, input.plan.child, input.plan.edit.axis, input.plan.edit.effort);
    return this.client.call({
      tool: 'review_plan',
      system: systemPrefix(this.catalogue, renderTaskFiles(input.parent.bundle, this.renderLimits).text),
      user: reviewPrompt(input, items, mechanical),
      interpret: (answer) => interpretReview(answer, items, mechanical),
    });
  }

  async modify(input: ModifyInput): Promise<ModifyOutput> {
    const files = renderTaskFiles(input.parent.bundle, this.renderLimits);
    return this.client.call({
      tool: 'write_residual',
      system: systemPrefix(this.catalogue, files.text),
      user: modifyPrompt(input),
      interpret: (answer) => {
        const residual = interpretResidual(answer, input.parent.bundle, files.shownInFull);
        return residual.ok ? { ok: true, value: { residual: residual.value, sequence: input.plan.child, notes: answer.notes } } : residual;
      },
    });
  }

  async judge(input: JudgeInput): Promise<JudgeVerdict> {
    // An item without a question is executable only; there is nothing for an LLM to judge.
    if (!input.item.question) return { verdict: 'unjudged', explanation: `rubric item ${input.item.key} has no question for the LLM judge` };
    return this.client.call({
      tool: 'judge_rubric_item',
      system: systemPrefix(this.catalogue, renderTaskFiles(input.bundle, this.renderLimits).text),
      user: judgePrompt(input.item),
      interpret: (answer) => ({ ok: true, value: { verdict: answer.verdict, explanation: answer.explanation } }),
    });
  }
}
