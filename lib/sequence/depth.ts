import type { Sequence } from './types.ts';

// The dependency chain of a sequence: per step, the number of steps on the longest path of
// dependencies ending at it (1 for a step that consumes nothing). Dependencies point only to
// earlier steps (structure.ts), so one pass in order suffices. A dependency on an unknown id
// counts as nothing, so a malformed sequence still gets a depth rather than an exception.
export function stepDepths(sequence: Sequence): Map<string, number> {
  const depths = new Map<string, number>();
  for (const step of sequence.steps) {
    const deepest = Math.max(0, ...step.dependsOn.map((id) => depths.get(id) ?? 0));
    depths.set(step.id, deepest + 1);
  }
  return depths;
}

/** The length of the longest dependency chain (the critical path); 0 for an empty sequence. */
export function chainDepth(sequence: Sequence): number {
  return Math.max(0, ...stepDepths(sequence).values());
}
