import type { Sequence } from './types.ts';

const GENERATED_ID = /^s(\d+)$/;

// Fresh step ids s1, s2, … Edits never remove steps, so numbering past the highest existing
// sN never reuses an id within a lineage; ids of other shapes (imported seeds) cannot collide.
export function nextStepIds(sequence: Sequence, count: number): string[] {
  let highest = 0;
  for (const step of sequence.steps) {
    const match = GENERATED_ID.exec(step.id);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return Array.from({ length: count }, (_, i) => `s${highest + 1 + i}`);
}

export function nextStepId(sequence: Sequence): string {
  return nextStepIds(sequence, 1)[0]!;
}
