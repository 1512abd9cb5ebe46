'use client';

import { useActionState } from 'react';
import { smallButtonClass } from '@/app/_components/ui.ts';
import { revokeTokenAction, type RevokeTokenState } from './actions.ts';

// Revoking is immediate and final (a revoked token is never revived), so it asks first.
export function RevokeTokenButton({ tokenId, name }: { tokenId: string; name: string }) {
  const [state, action, pending] = useActionState<RevokeTokenState, FormData>(revokeTokenAction.bind(null, tokenId), { error: null });
  return (
    <form
      action={action}
      onSubmit={(event) => {
        if (!window.confirm(`Revoke the token “${name}”? Whatever uses it is refused from now on.`)) event.preventDefault();
      }}
      className="flex items-center gap-2"
    >
      <button type="submit" disabled={pending} aria-label={`Revoke ${name}`} className={smallButtonClass}>
        Revoke
      </button>
      {state.error && (
        <span role="alert" className="text-xs text-red-700">
          {state.error}
        </span>
      )}
    </form>
  );
}
