'use client';

import { useActionState } from 'react';
import { smallButtonClass } from '@/app/_components/ui.ts';
import { setActiveAction, type ActivationState } from './actions.ts';

export function ActivationForm({ userId, email, active }: { userId: string; email: string; active: boolean }) {
  const [state, action, pending] = useActionState<ActivationState, FormData>(setActiveAction, { error: null, message: null });
  return (
    <form action={action} className="flex items-center gap-2">
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="active" value={active ? 'false' : 'true'} />
      <button type="submit" disabled={pending} aria-label={`${active ? 'Deactivate' : 'Reactivate'} ${email}`} className={smallButtonClass}>
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
