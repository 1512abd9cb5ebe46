import type { Sequence, Step } from './types.ts';

// Helpers the proposers use to apply a planned edit. They return new sequences (the parent is
// left untouched, since it stays stored with its own version) and throw on misuse; whether the
// result is a valid edit along an axis is checkEdit's job.

function copyStep(step: Step): Step {
  return { ...step, dependsOn: [...step.dependsOn] };
}

/** Inserts `steps` before index `at` (0 = at the front, steps.length = at the end). */
export function insertSteps(sequence: Sequence, at: number, steps: Step[]): Sequence {
  if (!Number.isInteger(at) || at < 0 || at > sequence.steps.length) {
    throw new RangeError(`insertSteps: position ${at} is outside 0..${sequence.steps.length}`);
  }
  const taken = new Set(sequence.steps.map((s) => s.id));
  for (const step of steps) {
    if (taken.has(step.id)) throw new Error(`insertSteps: step id "${step.id}" is already in use`);
    taken.add(step.id);
  }
  const copied = sequence.steps.map(copyStep);
  copied.splice(at, 0, ...steps.map(copyStep));
  return { steps: copied };
}

/** Sets `field` of each step in `stepIds` to the name at the same index of `names`. */
export function replaceField(sequence: Sequence, stepIds: string[], field: 'scenario' | 'skill', names: string[]): Sequence {
  if (stepIds.length !== names.length) {
    throw new Error(`replaceField: ${stepIds.length} step ids but ${names.length} names`);
  }
  const byId = new Map<string, string>();
  stepIds.forEach((id, i) => {
    if (byId.has(id)) throw new Error(`replaceField: step "${id}" is listed twice`);
    byId.set(id, names[i]!);
  });
  const known = new Set(sequence.steps.map((s) => s.id));
  for (const id of stepIds) {
    if (!known.has(id)) throw new Error(`replaceField: no step "${id}" in the sequence`);
  }
  return {
    steps: sequence.steps.map((step) => {
      const name = byId.get(step.id);
      return name === undefined ? copyStep(step) : { ...copyStep(step), [field]: name };
    }),
  };
}
