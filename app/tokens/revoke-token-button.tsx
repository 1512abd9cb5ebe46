'use client';

import { useActionState } from 'react';
import { smallButtonClass } from '@/app/_components/ui.ts';
import { revokeTokenAction, type RevokeTokenState } from './actions.ts';

// Revoking is immediate and final (a revoked token is never revived), so it asks first. When the
// token's groups released generations, the button lists them and offers to withdraw them too
// (back to approved); the question names what the withdrawal takes back.
export function RevokeTokenButton({ tokenId, name, releases }: { tokenId: string; name: string; releases: string | null }) {
  const [state, action, pending] = useActionState<RevokeTokenState, FormData>(revokeTokenAction.bind(null, tokenId), { error: null });
  return (
    <form
      action={action}
      onSubmit={(event) => {
        const withdraw = (event.currentTarget.elements.namedItem('withdraw') as HTMLInputElement | null)?.checked === true;
        const question = withdraw
          ? `Revoke the token “${name}” and withdraw the releases its groups made (${releases})? They go back to approved, and its groups never release anything again.`
          : `Revoke the token “${name}”? Whatever uses it is refused from now on.`;
        if (!window.confirm(question)) event.preventDefault();
      }}
      className="flex items-center gap-2"
    >
      {releases && (
        <label className="flex items-center gap-1 text-xs text-zinc-600" data-testid="token-releases">
          <input type="checkbox" name="withdraw" />
          also withdraw what its groups released: {releases}
        </label>
      )}
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
