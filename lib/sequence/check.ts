import { diffSequences, type SequenceDiff } from './diff.ts';
import { structuralViolations } from './structure.ts';
import type { Axis, Effort, Sequence } from './types.ts';

// Whether `child` is a legal edit of `parent` along `axis` within `effort` (docs/method.md §3).
// Returns the violations in plain words; an empty list means the edit is acceptable. The plan
// reviewer sends these back to the proposer, so each message names the step it is about.
export function checkEdit(parent: Sequence, child: Sequence, axis: Axis, effort: Effort): string[] {
  const structural = structuralViolations(child);
  if (structural.length > 0) return structural.map((v) => `child is not a valid sequence: ${v}`);
  const diff = diffSequences(parent, child);
  const axisViolations = axis === 'length' ? lengthViolations(parent, child, diff) : replacementViolations(diff, axis);
  const changed = axis === 'length' ? diff.inserted : [...new Set(diff.replaced.map((r) => r.stepId))];
  return [...axisViolations, ...effortViolations(child, changed, effort)];
}

// Shared by every axis: the parent's steps survive, in their order, with their dependencies.
function keptStepViolations(diff: SequenceDiff): string[] {
  const violations: string[] = [];
  if (diff.removed.length > 0) violations.push(`steps removed: ${diff.removed.join(', ')}`);
  if (diff.reordered) violations.push('the parent steps are not kept in their order');
  if (diff.rewired.length > 0) violations.push(`dependencies of existing steps changed: ${diff.rewired.join(', ')}`);
  return violations;
}

function lengthViolations(parent: Sequence, child: Sequence, diff: SequenceDiff): string[] {
  const violations = keptStepViolations(diff);
  if (child.steps.length <= parent.steps.length) {
    violations.push(`length must grow: the parent has ${parent.steps.length} steps, the child ${child.steps.length}`);
  }
  for (const r of diff.replaced) violations.push(`step ${r.stepId}: ${r.field} changed (${r.from} → ${r.to}); a length edit keeps existing steps unchanged`);
  // Structural validity already forces dependencies onto earlier steps; the first inserted
  // step can then only depend on parent steps, so by induction every inserted step with a
  // dependency is chained, directly or through other inserted steps, onto the parent's work.
  const inserted = new Set(diff.inserted);
  for (const step of child.steps) {
    if (inserted.has(step.id) && step.dependsOn.length === 0) {
      violations.push(`inserted step ${step.id} depends on no earlier step; it must consume an existing output`);
    }
  }
  return violations;
}

// Scenario and skill edits keep the same steps (ids, order, dependencies) and change only
// their own field; keeping every other field per step also keeps its multiset.
function replacementViolations(diff: SequenceDiff, axis: 'scenario' | 'skill'): string[] {
  const kept = axis === 'scenario' ? 'skill' : 'scenario';
  const violations = keptStepViolations(diff);
  if (diff.inserted.length > 0) violations.push(`steps inserted: ${diff.inserted.join(', ')}; a ${axis} edit keeps the same steps`);
  for (const r of diff.replaced) {
    if (r.field === kept) violations.push(`step ${r.stepId}: ${kept} changed (${r.from} → ${r.to}); a ${axis} edit keeps every ${kept}`);
  }
  if (!diff.replaced.some((r) => r.field === axis)) violations.push(`no ${axis} changed`);
  return violations;
}

// low = exactly one step changed; high = the changed steps form one contiguous span of the
// child; max = any number. "No change at all" is reported by the axis check.
function effortViolations(child: Sequence, changed: string[], effort: Effort): string[] {
  if (changed.length === 0 || effort === 'max') return [];
  if (effort === 'low') {
    return changed.length === 1 ? [] : [`low effort changes exactly one step; this edit changes ${changed.length} (${changed.join(', ')})`];
  }
  const changedSet = new Set(changed);
  const positions = child.steps.flatMap((s, i) => (changedSet.has(s.id) ? [i] : []));
  const contiguous = positions[positions.length - 1]! - positions[0]! + 1 === positions.length;
  return contiguous ? [] : [`high effort changes one contiguous span of steps; the changed steps ${changed.join(', ')} are not adjacent`];
}
