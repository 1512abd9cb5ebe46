'use client';

import Link from 'next/link';
import type { Route } from 'next';
import { useRouter } from 'next/navigation';
import { ShortcutHelp, useShortcuts } from './_components/shortcuts.tsx';
import { primaryButtonClass } from './_components/ui.ts';

// The home page's "Start" on the first generation waiting for this reviewer; `s` presses it.
export function StartReviewLink({ href, label }: { href: string; label: string }) {
  const router = useRouter();
  const shortcuts = [{ keys: ['s'], label: `Start reviewing: ${label}`, run: () => router.push(href as Route) }];
  const help = useShortcuts(shortcuts);
  return (
    <>
      <Link href={href as Route} className={primaryButtonClass} data-testid="start-review" data-keys-ready={help.ready ? '' : undefined} aria-keyshortcuts="s">
        Start: {label} →
      </Link>
      <ShortcutHelp shortcuts={shortcuts} open={help.helpOpen} onClose={() => help.setHelpOpen(false)} />
    </>
  );
}
