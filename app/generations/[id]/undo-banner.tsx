'use client';

import Link from 'next/link';
import type { Route } from 'next';
import { useRouter } from 'next/navigation';
import { useQuery } from '@tanstack/react-query';
import { fetchJson, PENDING_REFETCH_MS } from '@/app/_components/http.ts';
import { buttonClass } from '@/app/_components/ui.ts';
import { useJsonMutation } from '@/app/_components/use-json-mutation.ts';
import type { Decision, NextInQueue, SetAside, UndoableDecision, UndoneDecision, UndoOutcome } from '@/lib/review/index.ts';

export type DecidedView = UndoableDecision & { label: string }; // label: "logs-awk generation 3"

const PAST: Record<Decision, string> = { approve: 'Approved', reject: 'Rejected', 'request-changes': 'Requested changes on' };
const UNDONE: Record<Decision, string> = { approve: 'approval of', reject: 'rejection of', 'request-changes': 'change request on' };

// Where every decision and every undo lands: the decided generation's own page, the banner saying
// what happened, with the next generation in the queue one link (or `n`) away.
export function decidedHref(generationId: string, reviewId: string): Route {
  return `/generations/${generationId}?decided=${encodeURIComponent(reviewId)}` as Route;
}
export function undoneHref(generationId: string): Route {
  return `/generations/${generationId}?undone=1` as Route;
}

// The server undoes a decision while nothing has built on it (lib/review/undo.ts) and says why
// when it no longer can.
export function useUndo(decided: DecidedView | null) {
  const router = useRouter();
  return useJsonMutation<UndoOutcome>(() => ({ url: `/api/generations/${decided?.generationId}/decision/undo`, body: { reviewId: decided?.reviewId } }), {
    refresh: false,
    onSuccess: (outcome) => {
      router.replace(undoneHref(outcome.generationId));
      router.refresh();
    },
  });
}

// Whether the undo can still work, asked again while it is offered: the window ends, or a worker
// picks up the follow-up job, and the button goes with the reason.
export function useUndoAvailability(decided: DecidedView | null): UndoableDecision['undo'] | null {
  const live = useQuery({
    queryKey: ['undo', decided?.reviewId],
    queryFn: () =>
      fetchJson<UndoableDecision>(`/api/generations/${decided?.generationId}/decision/undo?reviewId=${encodeURIComponent(decided?.reviewId ?? '')}`),
    enabled: decided !== null && 'until' in decided.undo,
    initialData: decided ?? undefined,
    refetchInterval: (query) => (query.state.data && 'until' in query.state.data.undo ? PENDING_REFETCH_MS : false),
  });
  return decided ? (live.data?.undo ?? decided.undo) : null;
}

function generationLinks(generations: SetAside[]) {
  return generations.map((g, i) => (
    <span key={g.id}>
      {i > 0 && ', '}
      <Link href={`/generations/${g.id}` as Route} className="font-medium underline">
        G{g.number}
      </Link>
    </span>
  ));
}

// What follows the decision, said where the reviewer looks.
function whatFollows(decided: DecidedView): string {
  const n = decided.number;
  if (decided.decision === 'approve') {
    return decided.state === 'approved'
      ? `Next: generation ${n} is probed; once the lineage's release gate passes, it is released to trainers.`
      : `Next: generation ${n} needs another reviewer's approval before it is probed.`;
  }
  if (decided.decision === 'reject') {
    const again = decided.setAside.length > 0 ? ' The lineage evolves again from its newest standing generation on its next evolve.' : '';
    return `Next: generation ${n} is never served.${again}`;
  }
  const rebuild =
    decided.rebuild > 0
      ? ` once it is awaiting review again, ${decided.rebuild} ${decided.rebuild === 1 ? 'generation is' : 'generations are'} evolved from it to replace what was set aside.`
      : ' it then comes back to review.';
  return `Next: a worker revises generation ${n} from your comment;${rebuild}`;
}

function NextInQueueLink({ next }: { next: NextInQueue | null }) {
  if (!next) return <span className="text-xs">The review queue has nothing else for you.</span>;
  return (
    <Link href={`/generations/${next.generationId}` as Route} data-testid="decision-next" className="font-medium underline" aria-keyshortcuts="n">
      Next in queue: {next.lineageName} G{next.number} (n) →
    </Link>
  );
}

// "Requested changes on logs-awk generation 3 (changes-requested). Set aside: G4, G5. Next: … Undo (u)"
export function UndoBanner({
  decided,
  undo,
  availability,
  next,
}: {
  decided: DecidedView;
  undo: ReturnType<typeof useUndo>;
  availability: UndoableDecision['undo'];
  next: NextInQueue | null;
}) {
  const n = decided.setAside.length;
  return (
    <div role="status" data-testid="decision-done" className="flex flex-col gap-1 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
      <div className="flex flex-wrap items-center gap-2">
        <span className="flex-1">
          {PAST[decided.decision]} {decided.label} ({decided.state}).
        </span>
        {'until' in availability && (
          <button type="button" onClick={() => undo.mutate()} disabled={undo.isPending || undo.isSuccess} aria-keyshortcuts="u" className={buttonClass}>
            {undo.isPending ? 'Undoing…' : 'Undo (u)'}
          </button>
        )}
      </div>
      {n > 0 && (
        <p data-testid="decision-set-aside">
          Set aside (superseded, built on its version): {n} {n === 1 ? 'generation' : 'generations'}, {generationLinks(decided.setAside)}.
        </p>
      )}
      <p data-testid="decision-follows">{whatFollows(decided)}</p>
      {'refusal' in availability && (
        <p data-testid="undo-unavailable" className="text-xs">
          It can no longer be undone: {availability.refusal}.
        </p>
      )}
      {'until' in availability && n > 0 && <p className="text-xs">Undoing also restores the {n === 1 ? 'generation' : 'generations'} set aside.</p>}
      {undo.isError && (
        <p role="alert" data-testid="undo-error" className="text-xs text-red-800">
          {undo.error.message}
        </p>
      )}
      <NextInQueueLink next={next} />
    </div>
  );
}

// "Undid your change request on logs-awk generation 3; it is awaiting review again. Restored: G4, G5."
export function UndoneBanner({ undone, label, state, next }: { undone: UndoneDecision; label: string; state: string; next: NextInQueue | null }) {
  return (
    <div role="status" data-testid="decision-undone" className="flex flex-col gap-1 rounded-md bg-sky-50 px-3 py-2 text-sm text-sky-950">
      <span>
        Undid your {UNDONE[undone.decision]} {label}; it is {state} again.
      </span>
      {undone.restored.length > 0 && (
        <p data-testid="undo-restored">
          Restored to where they stood: {undone.restored.length} {undone.restored.length === 1 ? 'generation' : 'generations'},{' '}
          {generationLinks(undone.restored)}.
        </p>
      )}
      <NextInQueueLink next={next} />
    </div>
  );
}
