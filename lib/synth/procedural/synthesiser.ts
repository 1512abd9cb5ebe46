// The offline synthesiser: proposer, plan reviewer and modifier over the procedural catalogue.
// Everything is deterministic in its inputs; it never judges LLM rubric items.
import type { TaskBundle } from '../../env/bundle.ts';
import type { Sequence } from '../../sequence/types.ts';
import type { JudgeVerdict, ModifyInput, ModifyOutput, Plan, PlanReview, ProposeInput, ReviewPlanInput, Synthesiser } from '../types.ts';
import { diffBundles } from '../../env/residual.ts';
import { readProceduralMetadata } from './metadata.ts';
import { proposePlan } from './propose.ts';
import { renderEnvironment, type Fault } from './render.ts';
import { reviewPlan } from './review-plan.ts';

export interface ProceduralOptions {
  // Fault injection for validator tests: attemptN renders a broken candidate on Loop 2's Nth
  // attempt; other attempts render correctly.
  faults?: Partial<Record<`attempt${number}`, Fault>>;
}

const IMPORTED =
  'this environment was not rendered by the procedural synthesiser (no envolve-procedural generator marker in task.toml), so its scenario–skill sequence is unknown offline; scenario and skill edits of imported seeds need Claude (--synth anthropic)';

export class ProceduralSynthesiser implements Synthesiser {
  readonly name = 'procedural' as const;

  constructor(private readonly options: ProceduralOptions = {}) {}

  async extractSequence(bundle: TaskBundle): Promise<Sequence> {
    const meta = readProceduralMetadata(bundle);
    if (!meta) throw new Error(`cannot extract a sequence from ${bundle.name}: ${IMPORTED}`);
    return meta.sequence;
  }

  async propose(input: ProposeInput): Promise<Plan> {
    return proposePlan({ sequence: input.parent.sequence, axis: input.axis, effort: input.effort, seed: input.seed, round: input.feedback.length });
  }

  async reviewPlan(input: ReviewPlanInput): Promise<PlanReview> {
    return reviewPlan(input.parent.sequence, input.plan, input.rubric);
  }

  async modify(input: ModifyInput): Promise<ModifyOutput> {
    const meta = readProceduralMetadata(input.parent.bundle);
    if (!meta) throw new Error(`cannot modify ${input.parent.bundle.name}: ${IMPORTED}`);
    // The lineage keeps the seed it was born with, so steps the plan leaves alone keep their data
    // and the residual touches only what the edit changed (plus the files that summarise all steps).
    const fault = this.options.faults?.[`attempt${input.attempt}`];
    const child = renderEnvironment(input.plan.child, { seed: meta.seed, name: input.parent.bundle.name, fault });
    const residual = diffBundles(input.parent.bundle, child);
    const count = (op: string): number => residual.changes.filter((c) => c.op === op).length;
    const steps = input.plan.child.steps.map((s) => `${s.id} ${s.skill}/${s.scenario}`).join(', ');
    const notes = [
      `Rendered ${input.plan.child.steps.length} steps (${steps}) with seed ${meta.seed}: ${count('add')} files added, ${count('modify')} modified, ${count('delete')} deleted.`,
      ...(fault ? [`Fault injected on attempt ${input.attempt} by test configuration: ${fault}.`] : []),
    ].join(' ');
    return { residual, sequence: input.plan.child, notes };
  }

  async judge(): Promise<JudgeVerdict> {
    return { verdict: 'unjudged', explanation: 'no LLM configured: the procedural synthesiser cannot judge natural-language rubric items' };
  }
}
