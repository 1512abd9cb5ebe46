'use client';

// Keyboard-first blind labelling: 1/2/3 answer, Ctrl/Cmd+Enter submits and shows the next item
// (already prefetched, so it appears without a round trip), ←/→ move between the annotator's own
// items, ? toggles the help. The server leases the next item with the submit answer.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fetchJson, sendJson } from '@/app/_components/http.ts';
import { ShortcutHelp, useShortcuts, type Shortcut } from '@/app/_components/shortcuts.tsx';
import type { AnnotatorItemView, AnnotatorQueue, HumanLabel } from '@/lib/calibration/index.ts';
import { inputClass, kbdClass, primaryButtonClass } from '@/app/_components/ui.ts';
import { Trajectory } from '../../_components/trajectory.tsx';

const ANSWERS: { key: string; answer: HumanLabel; label: string; style: string }[] = [
  { key: '1', answer: 'pass', label: 'Pass', style: 'border-emerald-600 bg-emerald-50 text-emerald-900' },
  { key: '2', answer: 'fail', label: 'Fail', style: 'border-red-600 bg-red-50 text-red-900' },
  { key: '3', answer: 'unsure', label: 'Unsure', style: 'border-amber-500 bg-amber-50 text-amber-900' },
];

const itemKey = (setId: string, itemId: string) => ['calibration-item', setId, itemId] as const;
const itemUrl = (setId: string, itemId: string) => `/api/calibration/sets/${setId}/items/${itemId}`;

const postJson = <T,>(url: string, body: unknown) => sendJson<T>(url, 'POST', body);

export function Labeller({ setId }: { setId: string }) {
  const queryClient = useQueryClient();
  // Leasing is idempotent (a held lease is resumed), so the first load may run as a query.
  const queue = useQuery({
    queryKey: ['calibration-queue', setId],
    queryFn: () => postJson<AnnotatorQueue>(`/api/calibration/sets/${setId}/queue`, {}),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  const [viewing, setViewing] = useState<string | null>(null);
  const shown = viewing ?? queue.data?.current ?? null;
  const item = useQuery({
    queryKey: itemKey(setId, shown ?? ''),
    queryFn: () => fetchJson<AnnotatorItemView>(itemUrl(setId, shown!)),
    enabled: shown !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  // What the annotator has chosen per item, before submitting. Keyed by item, not reset by an
  // effect: a key pressed while an item's data is still arriving is kept, never cleared after it.
  const [drafts, setDrafts] = useState<Record<string, { answer?: HumanLabel; note?: string }>>({});
  const draft = shown ? drafts[shown] : undefined;
  const answer = draft?.answer ?? item.data?.myLabel?.answer ?? null;
  const note = draft?.note ?? item.data?.myLabel?.note ?? '';
  const edit = useCallback(
    (change: { answer?: HumanLabel; note?: string }) => {
      if (shown) setDrafts((all) => ({ ...all, [shown]: { ...all[shown], ...change } }));
    },
    [shown],
  );
  const setAnswer = useCallback((value: HumanLabel) => edit({ answer: value }), [edit]);
  const shownAt = useRef(0);
  const hasData = item.data !== undefined;
  useEffect(() => {
    if (hasData) shownAt.current = performance.now();
  }, [shown, hasData]);

  const prefetch = useCallback(
    (itemId: string | null | undefined) => {
      if (!itemId) return;
      void queryClient.prefetchQuery({
        queryKey: itemKey(setId, itemId),
        queryFn: () => fetchJson<AnnotatorItemView>(itemUrl(setId, itemId)),
        staleTime: Number.POSITIVE_INFINITY,
      });
    },
    [queryClient, setId],
  );
  useEffect(() => prefetch(queue.data?.upcoming), [prefetch, queue.data?.upcoming]);

  // The annotator's own items in set order: those they labelled and the one they hold.
  const mine = useMemo(() => {
    const q = queue.data;
    if (!q) return [];
    return [...q.labelled, ...(q.current ? [q.current] : [])];
  }, [queue.data]);
  const index = shown ? mine.indexOf(shown) : -1;

  const queueKey = ['calibration-queue', setId] as const;
  const submit = useMutation({
    mutationFn: (vars: { itemId: string; answer: HumanLabel; note: string }) =>
      postJson<AnnotatorQueue>(`${itemUrl(setId, vars.itemId)}/label`, {
        answer: vars.answer,
        note: vars.note,
        durationMs: Math.round(performance.now() - shownAt.current),
      }),
    // Show the next item at once, from the prefetched cache, without waiting for the server to
    // store the label and lease it; the server's answer then replaces the guess (or undoes it).
    onMutate: (vars) => {
      const before = queryClient.getQueryData<AnnotatorQueue>(queueKey);
      const viewingBefore = viewing;
      const itemBefore = queryClient.getQueryData<AnnotatorItemView>(itemKey(setId, vars.itemId));
      queryClient.setQueryData<AnnotatorItemView>(itemKey(setId, vars.itemId), (old) =>
        old ? { ...old, myLabel: { answer: vars.answer, note: vars.note } } : old,
      );
      if (before && vars.itemId === before.current) {
        queryClient.setQueryData<AnnotatorQueue>(queueKey, {
          ...before,
          labelled: [...before.labelled, vars.itemId],
          current: before.upcoming,
          upcoming: null,
          remaining: before.remaining - 1,
        });
      }
      setDrafts(({ [vars.itemId]: _submitted, ...rest }) => rest);
      setViewing(null);
      // A note field left focused would swallow the next item's 1/2/3.
      if (document.activeElement instanceof HTMLTextAreaElement) document.activeElement.blur();
      return { before, viewingBefore, itemBefore };
    },
    onError: (_error, vars, context) => {
      if (context?.before) queryClient.setQueryData(queueKey, context.before);
      if (context?.itemBefore) queryClient.setQueryData(itemKey(setId, vars.itemId), context.itemBefore);
      setDrafts((all) => ({ ...all, [vars.itemId]: { answer: vars.answer, note: vars.note } }));
      setViewing(context?.viewingBefore ?? null);
    },
    onSuccess: (next) => {
      queryClient.setQueryData(queueKey, next);
    },
  });

  // A submit while the previous save is in flight waits for it (the next item's place in the
  // queue comes with that answer) and then goes: a fast annotator's Ctrl+Enter is never dropped.
  const waiting = useRef<{ itemId: string; answer: HumanLabel; note: string } | null>(null);
  const doSubmit = useCallback(() => {
    if (!shown || !answer) return;
    const vars = { itemId: shown, answer, note };
    if (submit.isPending) waiting.current = vars;
    else submit.mutate(vars);
  }, [shown, answer, note, submit]);
  const { isPending: saving, mutate } = submit;
  useEffect(() => {
    if (saving || !waiting.current) return;
    const vars = waiting.current;
    waiting.current = null;
    mutate(vars);
  }, [saving, mutate]);

  // From "all done" (nothing shown), ← goes back to the last item labelled.
  const back = index > 0 || (index === -1 && mine.length > 0);
  const forward = index >= 0;
  const shortcuts: Shortcut[] = [
    ...ANSWERS.map((a) => ({ keys: [a.key], label: `Answer ${a.label.toLowerCase()}`, run: () => setAnswer(a.answer) })),
    { keys: ['Enter'], ctrl: true, label: 'Submit and go to the next item', run: doSubmit },
    { keys: ['ArrowLeft'], label: 'The previous of your items', enabled: back, run: () => setViewing(mine[index === -1 ? mine.length - 1 : index - 1]!) },
    { keys: ['ArrowRight'], label: 'The next of your items', enabled: forward, run: () => setViewing(index < mine.length - 1 ? mine[index + 1]! : null) },
    { keys: ['n'], label: 'Write a note (Esc leaves the note)', run: () => document.getElementById('label-note')?.focus() },
  ];
  const help = useShortcuts(shortcuts);

  useEffect(() => {
    if (index > 0) prefetch(mine[index - 1]);
    if (index >= 0) prefetch(mine[index + 1]);
  }, [index, mine, prefetch]);

  if (queue.isPending) return <p className="text-sm text-zinc-500">Loading your queue…</p>;
  if (queue.isError)
    return (
      <p role="alert" className="text-sm text-red-700">
        {queue.error.message}
      </p>
    );
  const q = queue.data;
  const total = q.labelled.length + q.remaining;
  const done = q.labelled.length;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <div
          role="progressbar"
          aria-label="Your progress"
          aria-valuemin={0}
          aria-valuemax={total}
          aria-valuenow={done}
          className="h-2 flex-1 overflow-hidden rounded-full bg-zinc-200"
        >
          <div className="h-full bg-zinc-900 transition-[width]" style={{ width: `${total === 0 ? 100 : (done / total) * 100}%` }} />
        </div>
        <span data-testid="progress-text" className="text-sm tabular-nums text-zinc-600">
          {done} of {total} labelled
        </span>
        <button type="button" onClick={() => help.setHelpOpen(true)} className="text-sm text-zinc-500 underline" aria-keyshortcuts="?">
          Shortcuts <kbd className={kbdClass}>?</kbd>
        </button>
      </div>

      <ShortcutHelp
        shortcuts={shortcuts}
        open={help.helpOpen}
        onClose={() => help.setHelpOpen(false)}
        note="You label blind: the verifier's verdict and other annotators' labels are never shown here."
      />

      {shown === null ? (
        <div data-testid="all-done" className="rounded-md border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900">
          Nothing left for you in this set: you labelled {done} item(s). Use ← to review your labels.
        </div>
      ) : item.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {item.error.message}
        </p>
      ) : !item.data ? (
        <p className="text-sm text-zinc-500">Loading item…</p>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[1fr_18rem]">
          <div className="min-w-0">
            <h2 data-testid="item-heading" className="mb-3 text-base font-semibold">
              Item {item.data.position} of {item.data.items}
              {shown !== q.current && <span className="ml-2 text-sm font-normal text-zinc-500">(labelled — you may revise it)</span>}
            </h2>
            <Trajectory trajectory={item.data.trajectory} />
          </div>
          <aside className="flex flex-col gap-3 lg:sticky lg:top-4 lg:self-start" aria-label="Your label">
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-semibold">Did the agent do the task?</legend>
              {ANSWERS.map((a) => (
                <label
                  key={a.answer}
                  className={`flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm ${answer === a.answer ? a.style : 'border-zinc-200 bg-white'}`}
                >
                  <input type="radio" name="answer" value={a.answer} checked={answer === a.answer} onChange={() => setAnswer(a.answer)} className="sr-only" />
                  <kbd className={kbdClass}>{a.key}</kbd> {a.label}
                  {answer === a.answer && (
                    <span className="ml-auto text-xs" aria-hidden>
                      selected
                    </span>
                  )}
                </label>
              ))}
            </fieldset>
            <label htmlFor="label-note" className="text-sm font-medium">
              Note{' '}
              <span className="font-normal text-zinc-400">
                (optional, <kbd className={kbdClass}>n</kbd>)
              </span>
            </label>
            <textarea id="label-note" value={note} onChange={(e) => edit({ note: e.target.value })} rows={3} className={inputClass} />
            <button type="button" onClick={doSubmit} disabled={!answer} className={primaryButtonClass}>
              Submit and next <kbd className="ml-2 rounded bg-zinc-700 px-1 font-mono text-xs">Ctrl+Enter</kbd>
            </button>
            {submit.isError && (
              <p role="alert" className="text-sm text-red-700">
                {submit.error.message}
              </p>
            )}
            <p className="text-xs text-zinc-500">
              <kbd className={kbdClass}>←</kbd> <kbd className={kbdClass}>→</kbd> your items ({index + 1} of {mine.length})
            </p>
          </aside>
        </div>
      )}
    </div>
  );
}
