// The outcome banner of the missed-issue and rubric server actions.
import Link from 'next/link';
import type { Route } from 'next';
import type { ActionResult } from '../action-result.ts';

export function ResultBanner({ result }: { result: ActionResult | null }) {
  if (!result) return null;
  return (
    <div
      role={result.ok ? 'status' : 'alert'}
      className={`rounded-md border px-3 py-2 text-sm ${result.ok ? 'border-emerald-200 bg-emerald-50 text-emerald-900' : 'border-red-200 bg-red-50 text-red-900'}`}
    >
      {result.message}
      {result.href && (
        <>
          {' '}
          <Link href={result.href as Route} className="font-medium underline">
            Open it
          </Link>
        </>
      )}
    </div>
  );
}
