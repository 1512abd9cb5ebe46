// Claude's answers about sequences, checked against the sequence rules (lib/sequence) before
// they are believed: an extracted sequence must be structurally valid; a proposed plan must be a
// legal edit of the parent along the requested axis within the requested effort, and the edit
// it states must be the one its child sequence actually makes. Names outside the reference
// catalogue are mapped to the nearest catalogue name first, and the mapping is shown: in the
// step's summary for an extraction, in the rationale for a plan.
import { checkEdit, describeEdit, structuralViolations } from '../../sequence/index.ts';
import type { Axis, Effort, Sequence, Step, StepReplacement } from '../../sequence/index.ts';
import { AxisExhausted, type Plan } from '../types.ts';
import { describeMappings, nearestCatalogueName, toCatalogue, type NameMapping } from './catalogue-names.ts';
import type { Interpretation } from './tool-client.ts';
import type { ToolInput } from './tools.ts';

type StepInput = ToolInput<'extract_sequence'>['steps'][number];

function toSequence(steps: StepInput[]): Sequence {
  return { steps: steps.map((s): Step => ({ id: s.id, scenario: s.scenario, skill: s.skill, dependsOn: s.dependsOn, summary: s.summary })) };
}

export function interpretExtracted(input: ToolInput<'extract_sequence'>): Interpretation<Sequence> {
  const named = toCatalogue(toSequence(input.steps));
  const problems = [...named.problems, ...structuralViolations(named.sequence)];
  if (problems.length > 0) return { ok: false, problems };
  const noted = (step: Step, mapped: NameMapping[]): Step => {
    const own = mapped.filter((m) => m.stepId === step.id);
    if (own.length === 0) return step;
    const note = own.map((m) => `${m.field} mapped from "${m.from}"`).join(', ');
    return { ...step, summary: step.summary ? `${step.summary} (${note})` : note };
  };
  return { ok: true, value: { steps: named.sequence.steps.map((s) => noted(s, named.mapped)) } };
}

// A proposer that says the axis is exhausted is believed: the lineage stops or moves to another
// axis, which costs nothing; the monotone gate still checks any plan it does make.
export function interpretPlan(input: ToolInput<'propose_plan'>, parent: Sequence, axis: Axis, effort: Effort): Interpretation<Plan> {
  if (input.exhausted) throw new AxisExhausted(axis, `the proposer found no ${axis} edit that makes the task harder: ${input.exhausted}`);
  const named = toCatalogue(toSequence(input.child.steps), new Set(parent.steps.flatMap((s) => [s.scenario, s.skill])));
  const child = named.sequence;
  const problems: string[] = [...named.problems];
  if (input.edit.axis !== axis) problems.push(`edit.axis is "${input.edit.axis}" but the requested axis is "${axis}"`);
  if (input.edit.effort !== effort) problems.push(`edit.effort is "${input.edit.effort}" but the requested effort is "${effort}"`);
  problems.push(...checkEdit(parent, child, axis, effort));
  const actual = describeEdit(parent, child, axis, effort);
  problems.push(...listMismatch('edit.inserted', input.edit.inserted, actual.inserted));
  // The stated replacements are read with the same mapping as the child, so a free name agrees with the name it became.
  const stated = input.edit.replaced.map((r) => ({
    ...r,
    from: nearestCatalogueName(r.field, r.from) ?? r.from,
    to: nearestCatalogueName(r.field, r.to) ?? r.to,
  }));
  problems.push(...listMismatch('edit.replaced', stated.map(replacementKey), actual.replaced.map(replacementKey)));
  if (problems.length > 0) return { ok: false, problems };
  const rationale = named.mapped.length > 0 ? `${input.rationale}\n\n(${describeMappings(named.mapped)})` : input.rationale;
  return { ok: true, value: { edit: actual, child, rationale } };
}

function replacementKey(r: StepReplacement): string {
  return `${r.stepId}.${r.field}: ${r.from} → ${r.to}`;
}

function listMismatch(field: string, stated: string[], actual: string[]): string[] {
  const statedSet = new Set(stated);
  const actualSet = new Set(actual);
  const missing = actual.filter((x) => !statedSet.has(x));
  const extra = stated.filter((x) => !actualSet.has(x));
  const problems: string[] = [];
  if (missing.length > 0) problems.push(`${field} omits what the child sequence changes: ${missing.join('; ')}`);
  if (extra.length > 0) problems.push(`${field} lists what the child sequence does not change: ${extra.join('; ')}`);
  return problems;
}
