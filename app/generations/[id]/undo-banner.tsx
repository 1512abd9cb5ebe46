'use client';

import type { Route } from 'next';
import { useRouter } from 'next/navigation';
import { buttonClass } from '@/app/_components/ui.ts';
import { useJsonMutation } from '@/app/_components/use-json-mutation.ts';
import type { Decision, UndoOutcome } from '@/lib/review/index.ts';

export interface DecidedView {
  generationId: string;
  reviewId: string;
  decision: Decision;
  label: string; // "logs-awk generation 3"
  state: string; // the state the decision left it in
}

const PAST: Record<Decision, string> = { approve: 'Approved', reject: 'Rejected', 'request-changes': 'Requested changes on' };

// The next generation's page carries the decision just made, so it can be undone from there.
export function nextGenerationHref(nextId: string, decided: DecidedView): Route {
  return `/generations/${nextId}?decided=${encodeURIComponent(decided.reviewId)}` as Route;
}

// The server undoes a decision within its window (lib/review/undo.ts) and says why when it no
// longer can; the reviewer lands back on the generation, awaiting review again.
export function useUndo(decided: DecidedView | null) {
  const router = useRouter();
  return useJsonMutation<UndoOutcome>(() => ({ url: `/api/generations/${decided?.generationId}/decision/undo`, body: { reviewId: decided?.reviewId } }), {
    refresh: false,
    onSuccess: (outcome) => {
      router.push(`/generations/${outcome.generationId}` as Route);
      router.refresh();
    },
  });
}

// "Approved logs-awk generation 3 (approved). Undo (u)"
export function UndoBanner({ decided, undo }: { decided: DecidedView; undo: ReturnType<typeof useUndo> }) {
  return (
    <div role="status" data-testid="decision-done" className="flex flex-wrap items-center gap-2 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
      <span className="flex-1">
        {PAST[decided.decision]} {decided.label} ({decided.state}).
      </span>
      <button type="button" onClick={() => undo.mutate()} disabled={undo.isPending || undo.isSuccess} aria-keyshortcuts="u" className={buttonClass}>
        {undo.isPending ? 'Undoing…' : 'Undo (u)'}
      </button>
      {undo.isError && (
        <p role="alert" data-testid="undo-error" className="basis-full text-xs text-red-800">
          {undo.error.message}
        </p>
      )}
    </div>
  );
}
