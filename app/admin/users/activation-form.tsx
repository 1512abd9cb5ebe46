'use client';

import { useActionState } from 'react';
import { setActiveAction, type ActivationState } from './actions.ts';

export function ActivationForm({ userId, email, active }: { userId: string; email: string; active: boolean }) {
  const [state, action, pending] = useActionState<ActivationState, FormData>(setActiveAction, { error: null, message: null });
  return (
    <form action={action} className="flex items-center gap-2">
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="active" value={active ? 'false' : 'true'} />
      <button
        type="submit"
        disabled={pending}
        aria-label={`${active ? 'Deactivate' : 'Reactivate'} ${email}`}
        className="h-7 rounded-md border border-zinc-300 bg-white px-2.5 text-xs font-medium text-zinc-700 hover:bg-zinc-50 disabled:opacity-60"
      >
        {active ? 'Deactivate' : 'Reactivate'}
      </button>
      {state.error && (
        <span role="alert" className="text-xs text-red-700">
          {state.error}
        </span>
      )}
      {state.message && (
        <span role="status" className="text-xs text-zinc-500">
          {state.message}
        </span>
      )}
    </form>
  );
}
