'use client';
// The exits of a needs-attention generation (lib/evolution/attention.ts): each needs what it
// says (a budget, a reason, a justification) and is sent with the revision this page rendered.
import { useState } from 'react';
import { HttpError } from '@/app/_components/http.ts';
import { approveButtonClass, dangerButtonClass, warnButtonClass } from '@/app/_components/ui.ts';
import { useJsonMutation } from '@/app/_components/use-json-mutation.ts';
import type { AttentionExit } from '@/lib/evolution/index.ts';

interface Props {
  generationId: string;
  revision: number;
  budgetFactors: readonly number[];
  canAccept: boolean; // a lead or an admin
}

const FIELD = 'rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm';

export function AttentionExits({ generationId, revision, budgetFactors, canAccept }: Props) {
  const [budgetFactor, setBudgetFactor] = useState(budgetFactors[0] ?? 2);
  const [reason, setReason] = useState('');
  const [justification, setJustification] = useState('');
  const take = useJsonMutation<{ state: string }, AttentionExit>((exit) => ({
    url: `/api/generations/${generationId}/attention`,
    body: { ...exit, revision },
  }));
  const pending = take.isPending;
  const error = take.error;
  return (
    <div className="flex flex-col gap-4" data-testid="attention-exits">
      <p className="text-xs text-zinc-600">
        No validator found a fault, but one reached no verdict. Evolution of this lineage is stopped here until one of these is chosen; each is recorded in the
        audit log.
      </p>
      <fieldset className="flex flex-col gap-1.5">
        <legend className="text-sm font-medium">Retry with a larger budget</legend>
        <p className="text-xs text-zinc-500">Validates the same candidate again, with the agent, verifier and rubric-check time budgets multiplied.</p>
        <div className="flex items-center gap-2">
          <label htmlFor="attention-budget" className="text-xs text-zinc-600">
            Budget
          </label>
          <select id="attention-budget" className={FIELD} value={budgetFactor} onChange={(e) => setBudgetFactor(Number(e.target.value))} disabled={pending}>
            {budgetFactors.map((f) => (
              <option key={f} value={f}>
                ×{f}
              </option>
            ))}
          </select>
          <button type="button" className={warnButtonClass} disabled={pending} onClick={() => take.mutate({ exit: 'retry', budgetFactor })}>
            Retry ×{budgetFactor}
          </button>
        </div>
      </fieldset>
      <fieldset className="flex flex-col gap-1.5">
        <legend className="text-sm font-medium">Discard</legend>
        <label htmlFor="attention-reason" className="text-xs text-zinc-500">
          Marks it superseded with your reason; the lineage evolves again from its parent.
        </label>
        <textarea id="attention-reason" rows={2} className={FIELD} value={reason} onChange={(e) => setReason(e.target.value)} disabled={pending} />
        <button
          type="button"
          className={`${dangerButtonClass} self-start`}
          disabled={pending || reason.trim() === ''}
          onClick={() => take.mutate({ exit: 'discard', reason })}
        >
          Discard
        </button>
      </fieldset>
      <fieldset className="flex flex-col gap-1.5">
        <legend className="text-sm font-medium">Accept to review (lead)</legend>
        <label htmlFor="attention-justification" className="text-xs text-zinc-500">
          Sends the candidate to human review without a validator verdict; your written justification is shown with it.
        </label>
        <textarea
          id="attention-justification"
          rows={2}
          className={FIELD}
          value={justification}
          onChange={(e) => setJustification(e.target.value)}
          disabled={pending || !canAccept}
        />
        <button
          type="button"
          className={`${approveButtonClass} self-start`}
          disabled={pending || !canAccept || justification.trim() === ''}
          onClick={() => take.mutate({ exit: 'accept', justification })}
        >
          Accept to review
        </button>
        {!canAccept && <p className="text-xs text-zinc-500">Only a lead may accept a generation no validator could judge.</p>}
      </fieldset>
      {error && (
        <p role="alert" data-testid="attention-error" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error instanceof HttpError ? error.message : String(error)}
        </p>
      )}
    </div>
  );
}
