'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { Decision } from '@/lib/review/types.ts';
import { HttpError, sendJson } from './post-json.ts';

const BUTTONS: { decision: Decision; label: string; style: string }[] = [
  { decision: 'approve', label: 'Approve', style: 'bg-emerald-700 text-white hover:bg-emerald-800' },
  { decision: 'request-changes', label: 'Request changes', style: 'bg-amber-100 text-amber-950 ring-1 ring-amber-400 hover:bg-amber-200' },
  { decision: 'reject', label: 'Reject', style: 'bg-red-700 text-white hover:bg-red-800' },
];

// Sends the revision this page rendered: if the generation changed since, the server answers
// 409 and the reviewer sees who changed it instead of overwriting their decision.
export function DecisionBox({ generationId, revision, decidable }: { generationId: string; revision: number; decidable: boolean }) {
  const router = useRouter();
  const [comment, setComment] = useState('');
  const [pending, setPending] = useState<Decision | null>(null);
  const [message, setMessage] = useState<{ kind: 'conflict' | 'error' | 'done'; text: string } | null>(null);

  async function submit(decision: Decision) {
    setPending(decision);
    setMessage(null);
    try {
      const outcome = await sendJson<{ state: string; approvals: number; approvalsRequired: number }>(`/api/generations/${generationId}/decision`, 'POST', { decision, comment, revision });
      setMessage({ kind: 'done', text: `Recorded: ${outcome.state} (${outcome.approvals} of ${outcome.approvalsRequired} approvals).` });
      setComment('');
      router.refresh();
    } catch (error) {
      const conflict = error instanceof HttpError && error.status === 409;
      setMessage({ kind: conflict ? 'conflict' : 'error', text: error instanceof Error ? error.message : String(error) });
    } finally {
      setPending(null);
    }
  }

  return (
    <form className="flex flex-col gap-2" onSubmit={(event) => event.preventDefault()} aria-label="Decision">
      <label htmlFor="decision-comment" className="text-xs font-medium text-zinc-600">
        Comment <span className="font-normal text-zinc-500">(required to reject or request changes; sent to the modifier as feedback)</span>
      </label>
      <textarea
        id="decision-comment"
        value={comment}
        onChange={(event) => setComment(event.target.value)}
        rows={3}
        disabled={!decidable}
        className="rounded-md border border-zinc-300 px-2 py-1.5 text-sm focus:outline-2 focus:outline-blue-600 disabled:bg-zinc-50"
      />
      <div className="flex flex-wrap gap-2">
        {BUTTONS.map((button) => (
          <button
            key={button.decision}
            type="button"
            disabled={!decidable || pending !== null}
            onClick={() => submit(button.decision)}
            className={`rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-50 ${button.style}`}
          >
            {pending === button.decision ? `${button.label}…` : button.label}
          </button>
        ))}
      </div>
      {!decidable && <p className="text-xs text-zinc-500">Only generations awaiting review can be decided.</p>}
      {message && (
        <p
          role={message.kind === 'done' ? 'status' : 'alert'}
          data-testid={`decision-${message.kind}`}
          className={`rounded-md px-3 py-2 text-sm ${message.kind === 'done' ? 'bg-emerald-50 text-emerald-900' : message.kind === 'conflict' ? 'bg-amber-50 text-amber-950 ring-1 ring-amber-300' : 'bg-red-50 text-red-800'}`}
        >
          {message.text}
        </p>
      )}
    </form>
  );
}
