'use client';

// A lead's final label on one contested item.
import type { FormEvent } from 'react';
import { useJsonMutation } from '@/app/_components/use-json-mutation.ts';
import { inputClass, primaryButtonClass } from '@/app/_components/ui.ts';

export function AdjudicateForm({ setId, itemId, current }: { setId: string; itemId: string; current: string | null }) {
  const adjudicate = useJsonMutation((form: FormData) => ({
    url: `/api/calibration/sets/${setId}/items/${itemId}/adjudication`,
    body: { label: form.get('label'), note: form.get('note') ?? '' },
  }));
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    adjudicate.mutate(new FormData(event.currentTarget));
  }
  return (
    <form onSubmit={onSubmit} aria-label={`Final label for item ${itemId}`} className="flex flex-wrap items-end gap-3">
      <fieldset className="flex gap-3 text-sm">
        <legend className="mb-1 text-xs text-zinc-500">Final label</legend>
        {(['pass', 'fail', 'unsure'] as const).map((label) => (
          <label key={label} className="flex items-center gap-1">
            <input type="radio" name="label" value={label} defaultChecked={current === label} required /> {label}
          </label>
        ))}
      </fieldset>
      <label className="flex flex-col gap-1 text-xs text-zinc-500">
        Note
        <input name="note" className={`${inputClass} w-72`} />
      </label>
      <button type="submit" disabled={adjudicate.isPending} className={primaryButtonClass}>
        {adjudicate.isPending ? 'Recording…' : current ? 'Change final label' : 'Record final label'}
      </button>
      {adjudicate.isError && (
        <p role="alert" className="text-sm text-red-700">
          {adjudicate.error.message}
        </p>
      )}
    </form>
  );
}
