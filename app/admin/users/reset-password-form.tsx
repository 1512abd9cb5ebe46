'use client';

import { useActionState } from 'react';
import { smallButtonClass } from '@/app/_components/ui.ts';
import { resetPasswordAction, type ResetPasswordState } from './actions.ts';

// Resetting signs the person out everywhere: the admin confirms, then hands over the new password.
export function ResetPasswordForm({ userId, email }: { userId: string; email: string }) {
  const [state, action, pending] = useActionState<ResetPasswordState, FormData>(resetPasswordAction, { error: null, reset: null });
  return (
    <form
      action={action}
      onSubmit={(event) => {
        if (!window.confirm(`Reset the password of ${email}? They are signed out everywhere and can sign in only with the new password you hand them.`))
          event.preventDefault();
      }}
      className="flex flex-wrap items-center gap-2"
    >
      <input type="hidden" name="userId" value={userId} />
      <button type="submit" disabled={pending} aria-label={`Reset the password of ${email}`} className={smallButtonClass}>
        {pending ? 'Resetting…' : 'Reset password'}
      </button>
      {state.error && (
        <span role="alert" className="text-xs text-red-700">
          {state.error}
        </span>
      )}
      {state.reset && (
        <span role="status" data-testid="reset-password" className="text-xs text-zinc-700">
          New password for {state.reset.email}: <code className="rounded bg-zinc-100 px-1 font-mono">{state.reset.password}</code> (shown once)
        </span>
      )}
    </form>
  );
}
