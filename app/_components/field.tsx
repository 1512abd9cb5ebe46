// A labelled form control: every control has a visible label, and its hint and error are tied
// to it with aria-describedby.
import type { ReactNode } from 'react';

export function Field(props: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: (describedBy: string | undefined, invalid: boolean) => ReactNode;
}) {
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
