'use client';

// A lead's "New set" form: scope (a lineage with an optional generation range, or version ids),
// size, pass share, seed, overlap and annotators. The server samples and refuses with the reason.
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useJsonMutation } from '@/app/_components/use-json-mutation.ts';
import { inputClass, primaryButtonClass } from '@/app/_components/ui.ts';

export interface FormOptions {
  lineages: { id: string; name: string }[];
  annotators: { email: string; name: string; role: string }[];
}

const optionalInt = (v: FormDataEntryValue | null) => (v === null || String(v).trim() === '' ? undefined : Number(v));

export function NewSetForm({ lineages, annotators }: FormOptions) {
  const router = useRouter();
  const [kind, setKind] = useState<'lineage' | 'versions'>('lineage');
  const create = useJsonMutation<{ id: string }, unknown>((body) => ({ url: '/api/calibration/sets', body }), {
    refresh: false,
    onSuccess: (set) => router.push(`/calibration/${set.id}`),
  });
  const error = create.error?.message ?? null;
  const pending = create.isPending;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const scope =
      kind === 'lineage'
        ? {
            kind,
            lineageId: String(form.get('lineageId') ?? ''),
            fromGeneration: optionalInt(form.get('fromGeneration')),
            toGeneration: optionalInt(form.get('toGeneration')),
          }
        : {
            kind,
            versionIds: String(form.get('versionIds') ?? '')
              .split(/[\s,]+/)
              .filter(Boolean),
          };
    const body = {
      name: String(form.get('name') ?? '').trim() || undefined,
      scope,
      size: optionalInt(form.get('size')),
      passShare: optionalInt(form.get('passShare')) === undefined ? undefined : Number(form.get('passShare')),
      design: String(form.get('design') ?? 'stratified'),
      seed: optionalInt(form.get('seed')),
      overlap: optionalInt(form.get('overlap')),
      annotatorEmails: form.getAll('annotators').map(String),
    };
    create.mutate(body);
  }

  return (
    <form onSubmit={onSubmit} aria-label="New calibration set" className="grid gap-3 rounded-lg border border-zinc-200 bg-white p-4 sm:grid-cols-2">
      <label className="flex flex-col gap-1 text-sm">
        Name
        <input name="name" className={inputClass} placeholder="e.g. logs-awk verifier, gens 1–8" />
      </label>
      <fieldset className="flex flex-col gap-1 text-sm">
        <legend>Scope</legend>
        <div className="flex gap-3">
          <label className="flex items-center gap-1">
            <input type="radio" name="kind" checked={kind === 'lineage'} onChange={() => setKind('lineage')} /> a lineage
          </label>
          <label className="flex items-center gap-1">
            <input type="radio" name="kind" checked={kind === 'versions'} onChange={() => setKind('versions')} /> chosen versions
          </label>
        </div>
      </fieldset>
      {kind === 'lineage' ? (
        <div className="flex flex-wrap gap-2 sm:col-span-2">
          <label className="flex flex-col gap-1 text-sm">
            Lineage
            <select name="lineageId" required className={inputClass}>
              {lineages.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            From generation
            <input name="fromGeneration" type="number" min={0} className={`${inputClass} w-28`} />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            To generation
            <input name="toGeneration" type="number" min={0} className={`${inputClass} w-28`} />
          </label>
        </div>
      ) : (
        <label className="flex flex-col gap-1 text-sm sm:col-span-2">
          Version ids (comma or space separated)
          <input name="versionIds" required className={`${inputClass} font-mono`} />
        </label>
      )}
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <label className="flex flex-col gap-1 text-sm">
          Size
          <input name="size" type="number" min={1} defaultValue={50} className={`${inputClass} w-24`} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Design
          <select name="design" defaultValue="stratified" className={inputClass}>
            <option value="stratified">stratified by verifier verdict</option>
            <option value="random">plain random</option>
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Share of verifier passes (stratified)
          <input name="passShare" type="number" min={0} max={1} step={0.05} defaultValue={0.5} className={`${inputClass} w-24`} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Seed
          <input name="seed" type="number" min={0} placeholder="random" className={`${inputClass} w-28`} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          Labels per item
          <input name="overlap" type="number" min={1} placeholder="2" className={`${inputClass} w-24`} />
        </label>
      </div>
      <fieldset className="flex flex-col gap-1 text-sm sm:col-span-2">
        <legend className="mb-1">Annotators</legend>
        <div className="flex flex-wrap gap-3">
          {annotators.map((a) => (
            <label key={a.email} className="flex items-center gap-1">
              <input type="checkbox" name="annotators" value={a.email} /> {a.name} <span className="text-zinc-400">({a.role})</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex items-center gap-3 sm:col-span-2">
        <button type="submit" disabled={pending} className={primaryButtonClass}>
          {pending ? 'Sampling…' : 'Create set'}
        </button>
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
    </form>
  );
}
