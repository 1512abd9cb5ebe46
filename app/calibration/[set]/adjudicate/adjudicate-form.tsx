'use client';

// A lead's final label on one contested item.
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { buttonClass, inputClass } from '../../_components/classes.ts';

export function AdjudicateForm({ setId, itemId, current }: { setId: string; itemId: string; current: string | null }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const response = await fetch(`/api/calibration/sets/${setId}/items/${itemId}/adjudication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ label: form.get('label'), note: form.get('note') ?? '' }),
    });
    if (!response.ok) return setError(((await response.json().catch(() => null)) as { message?: string } | null)?.message ?? `HTTP ${response.status}`);
    setError(null);
    router.refresh();
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
      <button type="submit" className={buttonClass}>
        {current ? 'Change final label' : 'Record final label'}
      </button>
      {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
    </form>
  );
}
