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

// Pale fills with a saturated border: the text on them stays dark and readable. Tailwind's palette
// variables, which the dark theme (app/globals.css) mirrors: there the fills are deep and the text pale.
export const TONES: Record<Tone, ToneStyle> = {
  seed: { label: 'Seed', fill: 'var(--color-zinc-100)', stroke: 'var(--color-zinc-500)', text: 'var(--color-zinc-800)' },
  'in-progress': { label: 'Planning / modifying', fill: 'var(--color-violet-50)', stroke: 'var(--color-violet-500)', text: 'var(--color-violet-900)' },
  [S.validating]: { label: 'Validating', fill: 'var(--color-blue-50)', stroke: 'var(--color-blue-500)', text: 'var(--color-blue-900)' },
  invalid: { label: 'Invalid / failed', fill: 'var(--color-red-50)', stroke: 'var(--color-red-600)', text: 'var(--color-red-900)' },
  [S.needsAttention]: {
    label: 'Needs attention (no verdict)',
    fill: 'var(--color-fuchsia-50)',
    stroke: 'var(--color-fuchsia-600)',
    text: 'var(--color-fuchsia-900)',
  },
  [S.awaitingReview]: { label: 'Awaiting review', fill: 'var(--color-amber-50)', stroke: 'var(--color-amber-600)', text: 'var(--color-amber-900)' },
  [S.changesRequested]: { label: 'Changes requested', fill: 'var(--color-orange-50)', stroke: 'var(--color-orange-600)', text: 'var(--color-orange-900)' },
  [S.approved]: { label: 'Approved', fill: 'var(--color-emerald-50)', stroke: 'var(--color-emerald-500)', text: 'var(--color-emerald-900)' },
  [S.rejected]: { label: 'Rejected', fill: 'var(--color-zinc-100)', stroke: 'var(--color-zinc-600)', text: 'var(--color-zinc-800)' },
  [S.released]: { label: 'Released', fill: 'var(--color-emerald-100)', stroke: 'var(--color-emerald-700)', text: 'var(--color-emerald-950)' },
  [S.superseded]: {
    label: 'Superseded (valid attempt not kept; built on a rejected or replaced version; discarded)',
    fill: 'var(--color-white)',
    stroke: 'var(--color-zinc-400)',
    text: 'var(--color-zinc-700)',
  },
  [S.exhausted]: {
    label: 'Axis exhausted: no edit raised D',
    fill: 'var(--color-zinc-50)',
    stroke: 'var(--color-yellow-700)',
    text: 'var(--color-yellow-950)',
  },
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
