'use client';
// Sets an imported seed's scenario–skill sequence: pairs in working order, each step consuming
// the one before. The reference names are listed so a reviewer picks from them.
import { useActionState } from 'react';
import { describeSeedAction, type DescribeState } from './actions.ts';

export function DescribeSeedForm({ versionId, current, scenarios, skills }: { versionId: string; current: string; scenarios: string[]; skills: string[] }) {
  const [state, action, pending] = useActionState<DescribeState, FormData>(describeSeedAction.bind(null, versionId), { error: null, message: null });
  return (
    <form action={action} className="flex flex-col gap-2 text-xs">
      <label htmlFor="seed-sequence" className="text-zinc-600">
        Describe this imported task as scenario:skill pairs in working order (each step consumes the one before), e.g.
        <span className="font-mono"> web-access-log:awk-fields, web-access-log:sort-uniq-count</span>
      </label>
      <input id="seed-sequence" name="sequence" defaultValue={current} className="h-8 rounded-md border border-zinc-300 px-2 font-mono" />
      <details className="text-zinc-500">
        <summary>Reference names</summary>
        <p>Scenarios: {scenarios.join(', ')}</p>
        <p>Skills: {skills.join(', ')}</p>
      </details>
      <div className="flex items-center gap-2">
        <button
          type="submit"
          disabled={pending}
          className="h-7 rounded-md border border-zinc-300 bg-white px-2.5 font-medium text-zinc-700 hover:bg-zinc-50 disabled:opacity-60"
        >
          Set sequence
        </button>
        {state.error && (
          <span role="alert" className="text-red-700">
            {state.error}
          </span>
        )}
        {state.message && (
          <span role="status" className="text-zinc-500">
            {state.message}
          </span>
        )}
      </div>
    </form>
  );
}
