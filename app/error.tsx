'use client';

import Link from 'next/link';

// An unexpected failure while rendering a page: say so, offer to try again or go home. The
// digest names the server log entry with the details (they are not shown to the browser).
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col gap-3 py-16 text-center">
      <p className="text-sm font-semibold text-zinc-500">Error</p>
      <h1 className="text-lg font-semibold tracking-tight">This page failed to load</h1>
      <p className="text-sm text-zinc-600">
        Something went wrong on the server{error.digest ? ` (reference ${error.digest}, in the server log)` : ''}. Trying again often works if the database was
        busy.
      </p>
      <p className="flex justify-center gap-4 text-sm">
        <button type="button" onClick={reset} className="font-medium text-zinc-900 underline underline-offset-4">
          Try again
        </button>
        <Link href="/" className="font-medium text-zinc-900 underline underline-offset-4">
          Home
        </Link>
      </p>
    </div>
  );
}
