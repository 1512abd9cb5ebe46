import type { SessionUser } from '@/app/_server/session.ts';
import { signOutAction } from '@/app/sign-in/actions.ts';
import { smallButtonClass } from './ui.ts';

// The header's right end: who is signed in, in which role, and the way out.
export function UserMenu({ user }: { user: SessionUser }) {
  return (
    <div className="ml-auto flex shrink-0 items-center gap-3">
      <p data-testid="signed-in-user" className="flex items-center gap-2 text-sm">
        <span className="font-medium text-zinc-900" title={user.email}>
          {user.name}
        </span>
        <span data-testid="signed-in-role" className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium text-zinc-600">
          {user.role}
        </span>
      </p>
      <form action={signOutAction}>
        <button type="submit" className={smallButtonClass}>
          Sign out
        </button>
      </form>
    </div>
  );
}
