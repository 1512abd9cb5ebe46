import type { Metadata } from 'next';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Not found' };

// Rendered with status 404 for unknown paths and for ids nothing matches.
export default function NotFound() {
  return (
    <div className="mx-auto flex max-w-md flex-col gap-3 py-16 text-center" data-testid="not-found">
      <p className="text-sm font-semibold text-zinc-500">404</p>
      <h1 className="text-lg font-semibold tracking-tight">Nothing here</h1>
      <p className="text-sm text-zinc-600">
        The page or the thing it names does not exist (or no longer does). A version or generation id may be shortened to any unique prefix.
      </p>
      <p className="flex justify-center gap-4 text-sm">
        <Link href="/" className="font-medium text-zinc-900 underline underline-offset-4">
          Home
        </Link>
        <Link href="/review" className="font-medium text-zinc-900 underline underline-offset-4">
          Review queue
        </Link>
      </p>
    </div>
  );
}
