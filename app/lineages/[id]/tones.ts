// The colour of a tree node says where it stands. Generation states and attempt states map onto
// one legend, so a failed generation and an invalid attempt read the same.

export type Tone =
  | 'seed'
  | 'in-progress'
  | 'validating'
  | 'invalid'
  | 'needs-attention'
  | 'awaiting-review'
  | 'changes-requested'
  | 'approved'
  | 'rejected'
  | 'released'
  | 'superseded'
  | 'exhausted';

export interface ToneStyle {
  label: string;
  fill: string;
  stroke: string;
  text: string;
}

// Pale fills with a saturated border: the text on them stays dark and readable.
export const TONES: Record<Tone, ToneStyle> = {
  seed: { label: 'Seed', fill: '#f4f4f5', stroke: '#71717a', text: '#27272a' },
  'in-progress': { label: 'Planning / modifying', fill: '#f5f3ff', stroke: '#8b5cf6', text: '#4c1d95' },
  validating: { label: 'Validating', fill: '#eff6ff', stroke: '#3b82f6', text: '#1e3a8a' },
  invalid: { label: 'Invalid / failed', fill: '#fef2f2', stroke: '#dc2626', text: '#7f1d1d' },
  'needs-attention': { label: 'Needs attention (no verdict)', fill: '#fdf4ff', stroke: '#c026d3', text: '#701a75' },
  'awaiting-review': { label: 'Awaiting review', fill: '#fffbeb', stroke: '#d97706', text: '#78350f' },
  'changes-requested': { label: 'Changes requested', fill: '#fff7ed', stroke: '#ea580c', text: '#7c2d12' },
  approved: { label: 'Approved', fill: '#ecfdf5', stroke: '#10b981', text: '#064e3b' },
  rejected: { label: 'Rejected', fill: '#f4f4f5', stroke: '#52525b', text: '#27272a' },
  released: { label: 'Released', fill: '#d1fae5', stroke: '#047857', text: '#022c22' },
  superseded: { label: 'Superseded (valid attempt not kept, or evolved from a rejected generation)', fill: '#ffffff', stroke: '#a1a1aa', text: '#3f3f46' },
  exhausted: { label: 'Axis exhausted: no edit raised D', fill: '#fafafa', stroke: '#a16207', text: '#422006' },
};

const GENERATION_TONES: Record<string, Tone> = {
  planning: 'in-progress',
  modifying: 'in-progress',
  validating: 'validating',
  'awaiting-review': 'awaiting-review',
  'changes-requested': 'changes-requested',
  approved: 'approved',
  rejected: 'rejected',
  released: 'released',
  failed: 'invalid',
  'needs-attention': 'needs-attention',
  superseded: 'superseded',
  exhausted: 'exhausted',
};

const ATTEMPT_TONES: Record<string, Tone> = {
  modifying: 'in-progress',
  validating: 'validating',
  valid: 'superseded', // drawn apart only when the generation kept another attempt
  invalid: 'invalid',
  error: 'invalid',
  inconclusive: 'needs-attention',
  skipped: 'invalid', // byte-identical to an attempt that already failed: not run
};

export function generationTone(state: string): Tone {
  return GENERATION_TONES[state] ?? 'in-progress';
}

export function attemptTone(state: string): Tone {
  return ATTEMPT_TONES[state] ?? 'in-progress';
}
