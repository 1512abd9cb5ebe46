// Labelled form controls shared by the missed-issue and rubric forms: every control has a
// visible label, its hint and error are tied to it with aria-describedby.
import Link from 'next/link';
import type { Route } from 'next';
import type { ReactNode } from 'react';
import type { ActionResult } from '../action-result.ts';

export const inputClass =
  'w-full rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 text-sm placeholder:text-zinc-400 aria-[invalid=true]:border-red-500';
export const buttonClass =
  'h-8 rounded-md border border-zinc-300 bg-white px-3 text-sm font-medium text-zinc-700 hover:bg-zinc-50 disabled:opacity-50';
export const primaryButtonClass =
  'h-8 rounded-md bg-zinc-900 px-3 text-sm font-medium text-white hover:bg-zinc-700 disabled:opacity-50';

export function Field(props: { id: string; label: string; hint?: string; error?: string; children: (describedBy: string | undefined, invalid: boolean) => ReactNode }) {
  const describedBy = [props.hint ? `${props.id}-hint` : '', props.error ? `${props.id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={props.id} className="text-sm font-medium text-zinc-800">
        {props.label}
      </label>
      {props.children(describedBy, Boolean(props.error))}
      {props.hint && (
        <p id={`${props.id}-hint`} className="text-xs text-zinc-500">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={`${props.id}-error`} className="text-xs text-red-700">
          {props.error}
        </p>
      )}
    </div>
  );
}

export function ResultBanner({ result }: { result: ActionResult | null }) {
  if (!result) return null;
  return (
    <div
      role={result.ok ? 'status' : 'alert'}
      className={`rounded-md border px-3 py-2 text-sm ${result.ok ? 'border-emerald-200 bg-emerald-50 text-emerald-900' : 'border-red-200 bg-red-50 text-red-900'}`}
    >
      {result.message}
      {result.ok && result.href && (
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
