'use client';

import { useActionState } from 'react';
import { ROLES, type Role } from '@/lib/auth/browser.ts';
import { changeRoleAction, type ChangeRoleState } from './actions.ts';

export function RoleForm({ userId, email, role }: { userId: string; email: string; role: Role }) {
  const [state, action, pending] = useActionState<ChangeRoleState, FormData>(changeRoleAction, { error: null, message: null });
  return (
    <form action={action} className="flex items-center gap-2">
      <input type="hidden" name="userId" value={userId} />
      {/* Keyed by the stored role: React resets a form after its action, and a select keeps the value it
          mounted with, so without a remount it could show the old role after a successful change. */}
      <select
        key={role}
        aria-label={`Role of ${email}`}
        name="role"
        defaultValue={role}
        className="h-7 rounded-md border border-zinc-300 bg-white px-2 text-sm"
      >
        {ROLES.map((r) => (
          <option key={r}>{r}</option>
        ))}
      </select>
      <button
        type="submit"
        disabled={pending}
        className="h-7 rounded-md border border-zinc-300 bg-white px-2.5 text-xs font-medium text-zinc-700 hover:bg-zinc-50 disabled:opacity-60"
      >
        Change role
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
