'use client';
// Activate / deactivate one item version. Activating a version retires the key's other one.
// Activating a global item changes how every lineage is judged: the lead confirms, told so.
import { useActionState } from 'react';
import { setItemActiveAction } from '../actions.ts';
import type { ActionResult } from '@/app/missed-issues/action-result.ts';

const globalConsequence = (label: string) =>
  `Activate ${label} for every lineage?\n\nFrom now on it judges every new generation of every lineage, and a failing verdict sends generations back to their modifier. Deactivate it to undo.`;

export function ActiveToggle({ itemId, active, label, scope }: { itemId: string; active: boolean; label: string; scope: string }) {
  const [result, toggle, pending] = useActionState<ActionResult | null>(setItemActiveAction.bind(null, itemId, !active), null);
  return (
    <form
      action={toggle}
      onSubmit={(event) => {
        if (!active && scope === 'global' && !window.confirm(globalConsequence(label))) event.preventDefault();
      }}
      className="inline-flex flex-col items-end gap-1"
    >
      <button
        type="submit"
        disabled={pending}
        aria-label={`${active ? 'Deactivate' : 'Activate'} ${label}`}
        className={`h-7 rounded-md px-2.5 text-xs font-medium disabled:opacity-50 ${active ? 'border border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50' : 'bg-zinc-900 text-white hover:bg-zinc-700'}`}
      >
        {pending ? (active ? 'Deactivating…' : 'Activating…') : active ? 'Deactivate' : 'Activate'}
      </button>
      {result && !result.ok && (
        <span role="alert" className="text-xs text-red-700">
          {result.message}
        </span>
      )}
    </form>
  );
}
