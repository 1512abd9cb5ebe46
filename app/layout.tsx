import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { can } from '@/lib/auth/index.ts';
import { NavLink } from './_components/nav-link.tsx';
import { UserMenu } from './_components/user-menu.tsx';
import { openMissedIssueCount } from '@/lib/missed-issues/index.ts';
import { requestDb } from './_server/db.ts';
import { currentUser } from './_server/session.ts';
import { Providers } from './providers.tsx';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Envolve', template: '%s · Envolve' },
  description: 'Evolves terminal-agent RL environments into harder ones, with validators and humans gating every generation.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Only for what the header shows: each page checks its own permission on the server.
  const user = await currentUser();
  const missedIssues = user && can(user.role, 'missed-issue.file') ? await openMissedIssueCount(await requestDb()) : null;
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-10 focus:rounded focus:bg-white focus:px-3 focus:py-1.5 focus:text-sm"
        >
          Skip to content
        </a>
        <header className="border-b border-zinc-200 bg-white">
          <div className="mx-auto flex min-h-12 max-w-7xl items-center gap-6 px-4 py-1.5 sm:px-6">
            <Link href="/" className="flex shrink-0 items-center gap-2 text-sm font-semibold tracking-tight">
              <span aria-hidden className="grid size-6 place-items-center rounded bg-zinc-900 text-xs text-white">
                E
              </span>
              Envolve
            </Link>
            {user && (
              // Every section a role may open; past the width of the row the links wrap onto a second.
              <nav aria-label="Main" className="flex min-w-0 flex-1 flex-wrap items-center gap-1">
                {can(user.role, 'dashboard.read') && <NavLink href="/environments">Environments</NavLink>}
                {can(user.role, 'dashboard.read') && <NavLink href="/lineages">Lineages</NavLink>}
                {can(user.role, 'dashboard.read') && <NavLink href="/review">Review</NavLink>}
                {missedIssues !== null && <NavLink href="/missed-issues">{`Missed issues (${missedIssues})`}</NavLink>}
                {can(user.role, 'dashboard.read') && <NavLink href="/rubric">Rubric</NavLink>}
                {can(user.role, 'trajectories.read') && <NavLink href="/trajectories">Trajectories</NavLink>}
                {can(user.role, 'drift.read') && <NavLink href="/drift">Drift</NavLink>}
                {can(user.role, 'calibration.label') && <NavLink href="/calibration">Calibration</NavLink>}
                {can(user.role, 'audit.read') && <NavLink href="/audit">Audit log</NavLink>}
                {can(user.role, 'users.manage') && <NavLink href="/admin/users">Users</NavLink>}
                {can(user.role, 'api-tokens.own') && <NavLink href="/tokens">API tokens</NavLink>}
              </nav>
            )}
            {user && <UserMenu user={user} />}
          </div>
        </header>
        <Providers>
          <main id="main" className="mx-auto max-w-7xl px-4 py-6 sm:px-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
