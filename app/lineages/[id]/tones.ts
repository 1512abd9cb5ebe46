// The colour of a tree node says where it stands. Generation states and attempt states map onto
// one legend, so a failed generation and an invalid attempt read the same.
import { AttemptState, GenerationState } from '@/lib/states/index.ts';

const S = GenerationState;
const A = AttemptState;

// A tone per drawn state: generation states that read alike share one (planning and modifying
// are both in progress; a failed generation reads as invalid).
type DrawnState = Exclude<GenerationState, typeof S.planning | typeof S.modifying | typeof S.failed>;
export type Tone = 'seed' | 'in-progress' | 'invalid' | DrawnState;

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
  [S.validating]: { label: 'Validating', fill: '#eff6ff', stroke: '#3b82f6', text: '#1e3a8a' },
  invalid: { label: 'Invalid / failed', fill: '#fef2f2', stroke: '#dc2626', text: '#7f1d1d' },
  [S.needsAttention]: { label: 'Needs attention (no verdict)', fill: '#fdf4ff', stroke: '#c026d3', text: '#701a75' },
  [S.awaitingReview]: { label: 'Awaiting review', fill: '#fffbeb', stroke: '#d97706', text: '#78350f' },
  [S.changesRequested]: { label: 'Changes requested', fill: '#fff7ed', stroke: '#ea580c', text: '#7c2d12' },
  [S.approved]: { label: 'Approved', fill: '#ecfdf5', stroke: '#10b981', text: '#064e3b' },
  [S.rejected]: { label: 'Rejected', fill: '#f4f4f5', stroke: '#52525b', text: '#27272a' },
  [S.released]: { label: 'Released', fill: '#d1fae5', stroke: '#047857', text: '#022c22' },
  [S.superseded]: {
    label: 'Superseded (valid attempt not kept; built on a rejected or replaced version; discarded)',
    fill: '#ffffff',
    stroke: '#a1a1aa',
    text: '#3f3f46',
  },
  [S.exhausted]: { label: 'Axis exhausted: no edit raised D', fill: '#fafafa', stroke: '#a16207', text: '#422006' },
};

const GENERATION_TONES: Record<GenerationState, Tone> = {
  [S.planning]: 'in-progress',
  [S.modifying]: 'in-progress',
  [S.validating]: S.validating,
  [S.awaitingReview]: S.awaitingReview,
  [S.changesRequested]: S.changesRequested,
  [S.approved]: S.approved,
  [S.rejected]: S.rejected,
  [S.released]: S.released,
  [S.failed]: 'invalid',
  [S.needsAttention]: S.needsAttention,
  [S.superseded]: S.superseded,
  [S.exhausted]: S.exhausted,
};

const ATTEMPT_TONES: Record<AttemptState, Tone> = {
  [A.modifying]: 'in-progress',
  [A.validating]: S.validating,
  [A.valid]: S.superseded, // drawn apart only when the generation kept another attempt
  [A.invalid]: 'invalid',
  [A.error]: 'invalid',
  [A.inconclusive]: S.needsAttention,
  [A.skipped]: 'invalid', // byte-identical to an attempt that already failed: not run
  [A.buildFailed]: 'invalid',
};

export function generationTone(state: string): Tone {
  return (GENERATION_TONES as Partial<Record<string, Tone>>)[state] ?? 'in-progress';
}

export function attemptTone(state: string): Tone {
  return (ATTEMPT_TONES as Partial<Record<string, Tone>>)[state] ?? 'in-progress';
}
