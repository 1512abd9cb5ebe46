// The offline synthesiser: proposer, plan reviewer and modifier over the procedural catalogue.
// Everything is deterministic in its inputs; it never judges LLM rubric items.
import type { TaskBundle } from '../../bundle/index.ts';
import type { Sequence } from '../../sequence/index.ts';
import type { JudgeVerdict, ModifyInput, ModifyOutput, Plan, PlanReview, ProposeInput, ReviewPlanInput, Synthesiser } from '../types.ts';
import { diffBundles } from '../../env/index.ts';
import { ImportedEditError, importedSequence, isImportedStep } from './imported.ts';
import { readProceduralMetadata } from './metadata.ts';
import { recoverSequence } from './recover.ts';
import type { ArtifactSource } from './oracle-artifacts.ts';
import { proposePlan } from './propose.ts';
import { readChain, renderChained } from './render-chain.ts';
import { renderEnvironment, type Fault } from './render.ts';
import { reviewPlan } from './review-plan.ts';
import { hashSeed } from './rng.ts';

export interface ProceduralOptions {
  // Fault injection for validator tests: attemptN renders a broken candidate on Loop 2's Nth
  // attempt; other attempts render correctly.
  faults?: Partial<Record<`attempt${number}`, Fault>>;
  // Runs an imported seed's oracle for the outputs new steps chain onto; without it imported
  // seeds cannot be lengthened.
  artifactSource?: ArtifactSource;
}

export class ProceduralSynthesiser implements Synthesiser {
  readonly name = 'procedural' as const;

  constructor(private readonly options: ProceduralOptions = {}) {}

  // A task this synthesiser rendered is read off its built files (recover.ts), never off the
  // sequence its task.toml claims; one it did not render is one opaque step: the original task.
  async extractSequence(bundle: TaskBundle): Promise<Sequence> {
    return recoverSequence(bundle) ?? readChain(bundle)?.chain.sequence ?? importedSequence(bundle.name);
  }

  async propose(input: ProposeInput): Promise<Plan> {
    return proposePlan({
      sequence: input.parent.sequence,
      axis: input.axis,
      effort: input.effort,
      seed: input.seed,
      round: input.feedback.length,
      minGain: input.minGain,
    });
  }

  async reviewPlan(input: ReviewPlanInput): Promise<PlanReview> {
    return reviewPlan(input.parent.sequence, input.plan, input.rubric);
  }

  async modify(input: ModifyInput): Promise<ModifyOutput> {
    const meta = readProceduralMetadata(input.parent.bundle);
    if (!meta) return this.chainOntoImported(input);
    // The lineage keeps the seed it was born with, so steps the plan leaves alone keep their data
    // and the residual touches only what the edit changed (plus the files that summarise all steps).
    // A retry after failed validation rebuilds the steps the validators' output names with another
    // construction variant (another question over another data shape); only when the output names
    // no step does it re-draw every step's data from the attempt's own seed.
    const fault = this.options.faults?.[`attempt${input.attempt}`];
    const retry = retriesAfterFailure(input) ? retryConstruction(input, meta.variants) : null;
    const seed = retry?.redraw ? input.seed : meta.seed;
    const variants = retry && !retry.redraw ? retry.variants : meta.variants;
    const child = renderEnvironment(input.plan.child, { seed, name: input.childName ?? input.parent.bundle.name, fault, variants });
    const residual = diffBundles(input.parent.bundle, child);
    const count = (op: string): number => residual.changes.filter((c) => c.op === op).length;
    const steps = input.plan.child.steps.map((s) => `${s.id} ${s.skill}/${s.scenario}`).join(', ');
    const notes = [
      `Rendered ${input.plan.child.steps.length} steps (${steps}) with seed ${seed}: ${count('add')} files added, ${count('modify')} modified, ${count('delete')} deleted.`,
      ...(retry ? [retry.note] : []),
      ...(fault ? [`Fault injected on attempt ${input.attempt} by test configuration: ${fault}.`] : []),
    ].join(' ');
    return { residual, sequence: input.plan.child, notes };
  }

  // An imported seed (or a task chained onto one) gets its chained steps rendered afresh onto the
  // seed's files; the lineage keeps the seed it first chained with, so old steps keep their data.
  // Chained steps can be lengthened, or have their scenario or skill replaced; the imported step
  // itself cannot be rewritten offline.
  private async chainOntoImported(input: ModifyInput): Promise<ModifyOutput> {
    const { bundle } = input.parent;
    const importedIds = new Set(input.parent.sequence.steps.filter(isImportedStep).map((s) => s.id));
    const rewritten = input.plan.edit.replaced.filter((r) => importedIds.has(r.stepId));
    if (rewritten.length > 0)
      throw new ImportedEditError(
        rewritten[0]!.field,
        input.parent.sequence.steps.filter((s) => importedIds.has(s.id)),
      );
    const fault = this.options.faults?.[`attempt${input.attempt}`];
    if (fault) throw new Error(`fault injection (${fault}) is not supported for imported tasks`);
    if (!this.options.artifactSource) {
      throw new Error(`cannot lengthen the imported task ${bundle.name}: the procedural synthesiser was created without a sandbox to run its oracle in`);
    }
    const chained = readChain(bundle);
    const base = chained?.base ?? bundle;
    const seed = (retriesAfterFailure(input) ? undefined : chained?.chain.seed) ?? input.seed;
    const artifacts = await this.options.artifactSource.oracleArtifacts(base);
    const child = renderChained(base, input.plan.child, { seed, name: bundle.name, artifacts });
    const residual = diffBundles(bundle, child);
    const chainedSteps = input.plan.child.steps.filter((s) => !importedIds.has(s.id));
    const notes = `Rendered ${chainedSteps.length} procedural step${chainedSteps.length === 1 ? '' : 's'} (${chainedSteps.map((s) => `${s.id} ${s.skill}/${s.scenario}`).join(', ')}) chained onto what the original oracle of ${bundle.name} writes (${artifacts.map((a) => a.path).join(', ')}), seed ${seed}: ${residual.changes.length} files changed.`;
    return { residual, sequence: input.plan.child, notes };
  }

  async judge(): Promise<JudgeVerdict> {
    return { verdict: 'unjudged', explanation: 'no LLM configured: the procedural synthesiser cannot judge natural-language rubric items' };
  }
}

interface RetryConstruction {
  redraw: boolean; // no step named: every step's data re-drawn from the attempt's seed
  variants: Record<string, number>;
  note: string;
}

// The child's steps the failure names (a verifier line "s2: failed …", a path /app/out/s2.txt),
// each given a new construction variant derived from what was said about it, so different
// feedback builds different candidates and the same step is never rebuilt the same way twice.
function retryConstruction(input: ModifyInput, previous: Record<string, number>): RetryConstruction {
  const text = input.feedback.join('\n');
  const named = input.plan.child.steps.filter((s) => new RegExp(`(?<![\\w-])${s.id}(?![\\w-])`).test(text));
  if (named.length === 0) {
    return {
      redraw: true,
      variants: previous,
      note: `Attempt ${input.attempt} follows a failed validation whose output names no step, so every step's data is re-drawn from seed ${input.seed}.`,
    };
  }
  const variants = { ...previous };
  for (const step of named) {
    const said = text.split('\n').filter((line) => line.includes(step.id));
    variants[step.id] = 1 + (hashSeed(step.id, input.attempt, ...said) % 999_999);
  }
  return {
    redraw: false,
    variants,
    note: `Attempt ${input.attempt} follows a failed validation naming ${named.map((s) => s.id).join(', ')}: ${named.length === 1 ? 'that step is' : 'those steps are'} rebuilt with another question over another data shape (variant ${named.map((s) => variants[s.id]).join(', ')}); the other steps keep their data.`,
  };
}

// Loop 2's later attempts (and a reviewer's revision) carry the reasons the earlier one failed.
function retriesAfterFailure(input: ModifyInput): boolean {
  return input.attempt > 1 && input.feedback.length > 0;
}
