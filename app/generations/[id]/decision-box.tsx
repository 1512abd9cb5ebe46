'use client';

import Link from 'next/link';
import type { Route } from 'next';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { HttpError } from '@/app/_components/http.ts';
import { ShortcutHelp, ShortcutHelpButton, useShortcuts, type Shortcut } from '@/app/_components/shortcuts.tsx';
import { approveButtonClass, buttonClass, dangerButtonClass, warnButtonClass } from '@/app/_components/ui.ts';
import { useJsonMutation } from '@/app/_components/use-json-mutation.ts';
import type { Decision, DecisionOutcome, NextInQueue, UndoneDecision } from '@/lib/review/index.ts';
import { decidedHref, UndoBanner, UndoneBanner, useUndo, useUndoAvailability, type DecidedView } from './undo-banner.tsx';
import { unviewedFiles, useResidualKeys } from './use-residual-keys.ts';

const BUTTONS: { decision: Decision; label: string; key: string; style: string }[] = [
  { decision: 'approve', label: 'Approve', key: 'a', style: approveButtonClass },
  { decision: 'request-changes', label: 'Request changes', key: 'c', style: warnButtonClass },
  { decision: 'reject', label: 'Reject', key: 'r', style: dangerButtonClass },
];

interface Props {
  generationId: string;
  label: string; // "logs-awk generation 3", for the banners
  state: string;
  revision: number;
  decidable: boolean;
  next: NextInQueue | null;
  decided: DecidedView | null; // the viewer's decision on this generation, just made
  undone: UndoneDecision | null; // the viewer's undo, the newest thing to happen to this generation
}

// Sends the revision this page rendered: if the generation changed since, the server answers
// 409 and the reviewer sees who changed it instead of overwriting their decision. After every
// decision and every undo the page stays on this generation, the banner saying what happened and
// what follows, with the next generation in the queue a link (or `n`) away.
export function DecisionBox(props: Props) {
  const { generationId, revision, decidable, decided } = props;
  const router = useRouter();
  const [comment, setComment] = useState('');
  const [intent, setIntent] = useState<Exclude<Decision, 'approve'> | null>(null);
  // Set while approving waits for the reviewer to confirm files they have not marked viewed.
  const [unviewedAsked, setUnviewedAsked] = useState<{ unviewed: number; total: number } | null>(null);
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const residual = useResidualKeys();
  const undo = useUndo(decided);
  const availability = useUndoAvailability(decided);
  const undoable = availability !== null && 'until' in availability;

  const decide = useJsonMutation<DecisionOutcome, Decision>(
    (decision) => ({ url: `/api/generations/${generationId}/decision`, body: { decision, comment, revision } }),
    {
      refresh: false,
      onSuccess: (outcome) => {
        setComment('');
        setIntent(null);
        setUnviewedAsked(null);
        router.replace(decidedHref(generationId, outcome.reviewId));
        router.refresh();
      },
    },
  );

  function submit(decision: Decision) {
    if (!decidable || decide.isPending) return;
    if (decision !== 'approve' && comment.trim() === '') {
      // Rejecting and requesting changes need the reason: ask for it where it is typed.
      setIntent(decision);
      commentRef.current?.focus();
      return;
    }
    if (decision === 'approve' && unviewedAsked === null) {
      // Approving with files not marked viewed asks once, naming how many; approving again confirms.
      const files = unviewedFiles();
      if (files.unviewed > 0) {
        setUnviewedAsked(files);
        return;
      }
    }
    setUnviewedAsked(null);
    decide.mutate(decision);
  }

  const nextHref = props.next ? (`/generations/${props.next.generationId}` as Route) : null;
  const shortcuts: Shortcut[] = [
    ...BUTTONS.map((b) => ({
      keys: [b.key],
      label:
        b.decision === 'approve' ? 'Approve (with files not viewed, asks first; a again approves)' : `${b.label} (asks for the comment, then Ctrl/⌘+Enter)`,
      run: () => submit(b.decision),
      enabled: decidable,
    })),
    { keys: ['Enter'], ctrl: true, label: 'Send the rejection or change request being written', run: () => intent && submit(intent), enabled: decidable },
    { keys: ['j'], label: 'Open the next residual file (data files last, unfolded when reached)', run: () => residual.move(1) },
    { keys: ['k'], label: 'Open the previous residual file', run: () => residual.move(-1) },
    { keys: ['v'], label: 'Mark the open file viewed and open the next unviewed one (or unmark it)', run: () => residual.toggleViewed() },
    { keys: ['m'], label: 'File a missed issue on this generation', run: () => router.push(`/generations/${generationId}/missed-issue/new` as Route) },
    { keys: ['n'], label: 'Open the next generation in the queue', run: () => nextHref && router.push(nextHref), enabled: nextHref !== null },
    {
      keys: ['u'],
      label: 'Undo the decision just made, while it can be undone',
      run: () => undo.mutate(),
      enabled: undoable && !undo.isPending && !undo.isSuccess,
    },
  ];
  const help = useShortcuts(shortcuts);

  const error = decide.error;
  const conflict = error instanceof HttpError && error.status === 409;
  return (
    <form className="flex flex-col gap-2" onSubmit={(event) => event.preventDefault()} aria-label="Decision" data-keys-ready={help.ready ? '' : undefined}>
      {decided && availability && <UndoBanner decided={decided} undo={undo} availability={availability} next={props.next} />}
      {!decided && props.undone && <UndoneBanner undone={props.undone} label={props.label} state={props.state} next={props.next} />}
      <label htmlFor="decision-comment" className="text-xs font-medium text-zinc-600">
        Comment <span className="font-normal text-zinc-500">(required to reject or request changes; sent to the modifier as feedback)</span>
      </label>
      <textarea
        id="decision-comment"
        ref={commentRef}
        value={comment}
        onChange={(event) => setComment(event.target.value)}
        rows={3}
        disabled={!decidable}
        placeholder={intent ? `Why ${intent === 'reject' ? 'reject' : 'request changes'}? Ctrl/⌘+Enter sends it.` : undefined}
        className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm disabled:bg-zinc-50"
      />
      <div className="flex flex-wrap gap-2">
        {BUTTONS.map((button) => (
          <button
            key={button.decision}
            type="button"
            disabled={!decidable || decide.isPending}
            onClick={() => submit(button.decision)}
            aria-keyshortcuts={button.key}
            className={`${button.style} ${intent === button.decision ? 'ring-2 ring-offset-1 ring-blue-600' : ''}`}
          >
            {decide.isPending && decide.variables === button.decision ? `${button.label}…` : button.label}
          </button>
        ))}
      </div>
      {unviewedAsked && (
        <div
          role="alert"
          data-testid="approve-unviewed"
          className="flex flex-wrap items-center gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-300"
        >
          <span>
            <span className="font-semibold tabular-nums">
              {unviewedAsked.unviewed} of {unviewedAsked.total} files
            </span>{' '}
            not viewed — approve anyway?
          </span>
          <button type="button" onClick={() => submit('approve')} disabled={decide.isPending} aria-keyshortcuts="a" className={approveButtonClass}>
            Approve anyway
          </button>
          <button type="button" onClick={() => setUnviewedAsked(null)} className={buttonClass}>
            Keep reviewing
          </button>
        </div>
      )}
      {!decidable && <p className="text-xs text-zinc-500">Only generations awaiting review can be decided.</p>}
      {intent && comment.trim() === '' && (
        <p role="status" data-testid="decision-needs-comment" className="text-xs text-amber-900">
          Write why, then press Ctrl/⌘+Enter or the {intent === 'reject' ? 'Reject' : 'Request changes'} button.
        </p>
      )}
      {error && (
        <p
          role="alert"
          data-testid={`decision-${conflict ? 'conflict' : 'error'}`}
          className={`rounded-md px-3 py-2 text-sm ${conflict ? 'bg-amber-50 text-amber-950 ring-1 ring-amber-300' : 'bg-red-50 text-red-800'}`}
        >
          {error.message}
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2 border-t border-zinc-100 pt-2 text-xs">
        <Link href={`/generations/${generationId}/missed-issue/new` as Route} className="font-medium text-blue-700 hover:underline" aria-keyshortcuts="m">
          File missed issue
        </Link>
        {!decided && !props.undone && props.next && nextHref && (
          <Link href={nextHref} data-testid="next-generation" className="font-medium text-blue-700 hover:underline" aria-keyshortcuts="n">
            Next: {props.next.lineageName} G{props.next.number} →
          </Link>
        )}
        <ShortcutHelpButton onClick={() => help.setHelpOpen((open) => !open)} />
      </div>
      <ShortcutHelp shortcuts={shortcuts} open={help.helpOpen} onClose={() => help.setHelpOpen(false)} />
    </form>
  );
}
