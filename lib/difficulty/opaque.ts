// Steps D cannot price: an imported task nobody has described or extracted is one opaque step
// whose names ("imported:<task>") say only where it came from. The reference priors know no such
// name, and charging it the smoothing floor gave every undescribed task the same D whatever it
// asked, more than many real evolved tasks. So an opaque step has no price: a sequence holding one
// has an unknown D until a reviewer describes the task or the synthesiser extracts its steps.
import type { Sequence, Step } from '../sequence/index.ts';

export const OPAQUE_PREFIX = 'imported:';

// What every page, API answer and CLI line shows in place of an unknown D.
export const UNKNOWN_DIFFICULTY_LABEL = 'unknown — undescribed';

export const isOpaqueStep = (step: Pick<Step, 'scenario' | 'skill'>): boolean =>
  step.scenario.startsWith(OPAQUE_PREFIX) || step.skill.startsWith(OPAQUE_PREFIX);

export const opaqueStepIds = (sequence: Sequence): string[] => sequence.steps.filter(isOpaqueStep).map((s) => s.id);
