// The scenario–skill execution sequence of an environment (docs/method.md §2): an ordered list of
// steps, each a (scenario σ, skill κ) pair, with the steps whose outputs it consumes.

export interface Step {
  id: string; // stable within a lineage: an edited step keeps its id, an inserted step gets a new one
  scenario: string; // σ: the situation the step works in (a catalogue name, or free text from an LLM)
  skill: string; // κ: the terminal skill the step exercises
  dependsOn: string[]; // ids of earlier steps whose outputs this step consumes
  summary?: string; // one sentence on what the step does (imported and LLM-made steps)
  origin?: 'imported'; // a reviewer's description of part of an imported task (not Envolve's to rewrite offline)
}

export interface Sequence {
  steps: Step[];
}

export type Axis = 'length' | 'scenario' | 'skill';
export const AXES: Axis[] = ['length', 'scenario', 'skill'];

// How much one generation may change: low = one step, high = one contiguous span, max = unbounded.
export type Effort = 'low' | 'high' | 'max';
export const EFFORTS: Effort[] = ['low', 'high', 'max'];

export interface StepReplacement {
  stepId: string;
  field: 'scenario' | 'skill';
  from: string;
  to: string;
}

// A sequence-level edit, as the proposer plans it and the dashboard shows it.
export interface SequenceEdit {
  axis: Axis;
  effort: Effort;
  inserted: string[]; // ids of the steps the edit adds (length)
  replaced: StepReplacement[]; // scenario or skill replacements
}

export type AxisPolicy = { kind: 'fixed'; axis: Axis } | { kind: 'round-robin' } | { kind: 'weighted'; weights: Record<Axis, number> };
