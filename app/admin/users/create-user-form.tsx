'use client';

import { useActionState } from 'react';
import { ROLES } from '@/lib/auth/browser.ts';
import { createUserAction, type CreateUserState } from './actions.ts';

const FIELD = 'h-8 rounded-md border border-zinc-300 bg-white px-2.5 text-sm focus:border-zinc-500 focus:outline-none focus:ring-2 focus:ring-zinc-200';

export function CreateUserForm() {
  const [state, action, pending] = useActionState<CreateUserState, FormData>(createUserAction, { error: null, created: null });
  return (
    <section aria-labelledby="create-user" className="rounded-lg border border-zinc-200 bg-white px-4 py-3">
      <h2 id="create-user" className="mb-3 text-sm font-semibold">
        New user
      </h2>
      <form action={action} className="flex flex-wrap items-end gap-2">
        <input aria-label="New user email" name="email" type="email" required placeholder="email" className={`${FIELD} w-64`} />
        <input aria-label="New user name" name="name" required placeholder="name" className={`${FIELD} w-48`} />
        <select aria-label="New user role" name="role" defaultValue="reviewer" className={FIELD}>
          {ROLES.map((role) => (
            <option key={role}>{role}</option>
          ))}
        </select>
        <button
          type="submit"
          disabled={pending}
          className="h-8 rounded-md bg-zinc-900 px-3 text-sm font-medium text-white hover:bg-zinc-800 disabled:opacity-60"
        >
          Create user
        </button>
      </form>
      {state.error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {state.error}
        </p>
      )}
      {state.created && (
        <p data-testid="created-password" className="mt-2 text-sm text-zinc-700">
          Created {state.created.email}. Password, shown only now: <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono">{state.created.password}</code>
        </p>
      )}
    </section>
  );
}
