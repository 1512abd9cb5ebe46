// The procedural plan reviewer: every check it makes is computed here from the two sequences.
// It cannot judge natural-language rubric items, so those are recorded 'unjudged', never passed.
import { checkEdit, describeEdit } from '../../sequence/index.ts';
import type { Sequence, SequenceEdit } from '../../sequence/index.ts';
import type { Plan, PlanReview, RubricItemView } from '../types.ts';
import { chainMisfit, misfit, SCENARIO_NAMES, SKILL_NAMES } from './catalogue.ts';
import { isImportedStep } from './imported.ts';

export function reviewPlan(parent: Sequence, plan: Plan, rubric: RubricItemView[]): PlanReview {
  const reasons = [...checkEdit(parent, plan.child, plan.edit.axis, plan.edit.effort)];
  const imported = new Set(parent.steps.filter(isImportedStep).map((s) => s.id));
  for (const r of plan.edit.replaced) {
    if (imported.has(r.stepId)) reasons.push(`step ${r.stepId} is the imported task; the procedural synthesiser cannot change its ${r.field}`);
  }
  for (const step of plan.child.steps.filter((s) => !imported.has(s.id))) {
    if (!SCENARIO_NAMES.includes(step.scenario)) reasons.push(`step ${step.id}: scenario "${step.scenario}" is not in the procedural catalogue`);
    if (!SKILL_NAMES.includes(step.skill)) reasons.push(`step ${step.id}: skill "${step.skill}" is not in the procedural catalogue`);
    const unfit = misfit(step.scenario, step.skill);
    if (unfit) reasons.push(`step ${step.id}: ${unfit}`);
  }
  const unchained = chainMisfit(plan.child);
  if (unchained) reasons.push(unchained);
  const actual = describeEdit(parent, plan.child, plan.edit.axis, plan.edit.effort);
  if (editKey(actual) !== editKey(plan.edit)) {
    reasons.push(`the plan's edit record does not match its child sequence (the child implies ${JSON.stringify(actual)})`);
  }
  const items = rubric
    .filter((item) => item.appliesTo !== 'environment')
    .map((item) => ({
      itemId: item.id,
      verdict: 'unjudged' as const,
      reason: 'the procedural reviewer checks only axis, effort, catalogue names and sequence structure; this item needs an LLM judge',
    }));
  return { approved: reasons.length === 0, reasons, items };
}

// Field order and key order do not matter; what was inserted and replaced does.
function editKey(edit: SequenceEdit): string {
  const replaced = edit.replaced.map((r) => [r.stepId, r.field, r.from, r.to].join('\u0000')).sort();
  return JSON.stringify([edit.axis, edit.effort, [...edit.inserted].sort(), replaced]);
}
