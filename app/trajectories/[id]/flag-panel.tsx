'use client';

import Link from 'next/link';
import type { Route } from 'next';
import { useState } from 'react';
import { useJsonMutation } from '@/app/_components/use-json-mutation.ts';
import type { FlagOutcome } from '@/lib/trajectories/index.ts';

// Flagging compromises the whole environment version: the scheduler stops serving it.
const FLAG_CONSEQUENCE =
  'Flag this environment version as a reward hack?\n\nTrainers stop receiving it at once (batches skip it and its task answers 410) and a missed issue is opened on its generation. A lead can lift the flag.';
export function FlagPanel({
  trajectoryId,
  flaggedAt,
  flaggedBy,
  compromised,
  canFlag,
  canUnflag,
}: {
  trajectoryId: string;
  flaggedAt: string | null;
  flaggedBy: string | null;
  compromised: boolean;
  canFlag: boolean;
  canUnflag: boolean;
}) {
  const [reason, setReason] = useState('');
  const flag = useJsonMutation<FlagOutcome>(() => ({ url: `/api/trajectories/${trajectoryId}/flag`, body: { reason } }));
  const unflag = useJsonMutation(() => ({ url: `/api/trajectories/${trajectoryId}/flag`, method: 'DELETE' }));
  const outcome = flag.data;
  return (
    <div className="flex flex-col gap-2 text-sm">
      {flaggedAt && (
        <p className="text-red-800" data-testid="flagged">
          Flagged as a reward hack{flaggedBy ? ` by ${flaggedBy}` : ''} on {flaggedAt.slice(0, 16).replace('T', ' ')} UTC.
        </p>
      )}
      {outcome && (
        <p role="status" className="rounded bg-zinc-50 px-2 py-1.5 text-xs text-zinc-700">
          Version compromised.{' '}
          {outcome.missedIssueId ? (
            <Link className="text-blue-700 hover:underline" href={`/missed-issues/${outcome.missedIssueId}` as Route}>
              Missed issue opened
            </Link>
          ) : (
            outcome.note
          )}
        </p>
      )}
      {canFlag && !flaggedAt && (
        <form
          className="flex flex-col gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (window.confirm(FLAG_CONSEQUENCE)) flag.mutate();
          }}
        >
          <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
            Why is this a reward hack?
            <textarea
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              required
              minLength={3}
              rows={3}
              placeholder="e.g. writes /logs/verifier/reward.txt itself instead of fixing the bug"
              className="rounded-md border border-zinc-300 px-2 py-1 text-sm font-normal text-zinc-900"
            />
          </label>
          <button
            type="submit"
            disabled={flag.isPending}
            className="self-start rounded-md bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700 disabled:opacity-50"
          >
            {flag.isPending ? 'Flagging…' : 'Flag as reward hack'}
          </button>
          <p className="text-xs text-zinc-500">
            Compromises this environment version (no longer served for training) and opens a missed issue on its generation.
          </p>
        </form>
      )}
      {canUnflag && compromised && (
        <button
          type="button"
          disabled={unflag.isPending}
          onClick={() => unflag.mutate()}
          className="self-start rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-700 hover:bg-zinc-50 disabled:opacity-50"
        >
          Lift the compromise of this version
        </button>
      )}
      {(flag.error ?? unflag.error) && (
        <p role="alert" className="text-xs text-red-700">
          {(flag.error ?? unflag.error)?.message}
        </p>
      )}
    </div>
  );
}
