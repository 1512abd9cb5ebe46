import type { Axis, Effort, Sequence, SequenceEdit, Step, StepReplacement } from './types.ts';

// What changed between a parent sequence and a child, matched by step id (ids are stable
// within a lineage). The dashboard highlights exactly these steps; checkEdit judges them.
export interface SequenceDiff {
  inserted: string[]; // child step ids absent from the parent, in child order
  removed: string[]; // parent step ids absent from the child (no valid edit removes steps)
  replaced: StepReplacement[]; // scenario/skill changes of kept steps, in child order
  rewired: string[]; // kept steps whose dependsOn changed
  reordered: boolean; // the kept steps are not in the parent's relative order
}

function sameDependencies(a: Step, b: Step): boolean {
  return a.dependsOn.length === b.dependsOn.length && a.dependsOn.every((dep, i) => dep === b.dependsOn[i]);
}

export function diffSequences(parent: Sequence, child: Sequence): SequenceDiff {
  const parentById = new Map(parent.steps.map((s) => [s.id, s]));
  const childIds = new Set(child.steps.map((s) => s.id));
  const diff: SequenceDiff = { inserted: [], removed: [], replaced: [], rewired: [], reordered: false };
  const keptInChildOrder: string[] = [];
  for (const step of child.steps) {
    const before = parentById.get(step.id);
    if (!before) {
      diff.inserted.push(step.id);
      continue;
    }
    keptInChildOrder.push(step.id);
    for (const field of ['scenario', 'skill'] as const) {
      if (before[field] !== step[field]) diff.replaced.push({ stepId: step.id, field, from: before[field], to: step[field] });
    }
    if (!sameDependencies(before, step)) diff.rewired.push(step.id);
  }
  const keptInParentOrder = parent.steps.map((s) => s.id).filter((id) => childIds.has(id));
  diff.removed = parent.steps.map((s) => s.id).filter((id) => !childIds.has(id));
  diff.reordered = keptInParentOrder.some((id, i) => keptInChildOrder[i] !== id);
  return diff;
}

/** The SequenceEdit record of a planned parent → child change, for Plan.edit. */
export function describeEdit(parent: Sequence, child: Sequence, axis: Axis, effort: Effort): SequenceEdit {
  const { inserted, replaced } = diffSequences(parent, child);
  return { axis, effort, inserted, replaced };
}
