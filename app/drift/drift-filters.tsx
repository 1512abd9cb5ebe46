'use client';

import { useRef } from 'react';
import type { DriftFacets, DriftFilter } from '@/lib/drift/index.ts';

const FIELD = 'h-8 rounded-md border border-zinc-300 bg-white px-2 text-sm';
const LABEL = 'flex flex-col gap-1 text-xs font-medium text-zinc-600';

// A GET form (works without JavaScript, URLs are shareable); with JavaScript a change applies at once.
export function DriftFilters({ filter, facets, policies }: { filter: DriftFilter; facets: DriftFacets; policies: string[] }) {
  const form = useRef<HTMLFormElement>(null);
  const submit = () => form.current?.requestSubmit();
  return (
    <form ref={form} role="search" aria-label="Filter lineages" action="/drift" className="flex flex-wrap items-end gap-2" onChange={submit}>
      {filter.lineage && <input type="hidden" name="lineage" value={filter.lineage} />}
      {filter.x === 'time' && <input type="hidden" name="x" value="time" />}
      <label className={LABEL}>
        Seed
        <select name="seed" defaultValue={filter.seed ?? ''} className={`${FIELD} max-w-52`}>
          <option value="">any</option>
          {facets.seeds.map((seed) => (
            <option key={seed.id} value={seed.id}>
              {seed.name} ({seed.lineages})
            </option>
          ))}
        </select>
      </label>
      <label className={LABEL}>
        Axis policy
        <select name="axisPolicy" defaultValue={filter.axisPolicy ?? ''} className={FIELD}>
          <option value="">any</option>
          {facets.axisPolicies.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <label className={LABEL}>
        Pass rates of
        <select name="policy" defaultValue={filter.policy ?? ''} className={FIELD} data-testid="policy-filter">
          <option value="">each lineage&apos;s probe policy</option>
          {policies.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <label className={LABEL}>
        Synthesiser
        <select name="synthesiser" defaultValue={filter.synthesiser ?? ''} className={FIELD}>
          <option value="">any</option>
          {facets.synthesisers.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label className={LABEL}>
        Started from
        <input type="date" name="from" defaultValue={filter.from ?? ''} className={FIELD} />
      </label>
      <label className={LABEL}>
        to
        <input type="date" name="to" defaultValue={filter.to ?? ''} className={FIELD} />
      </label>
      <button type="submit" className="h-8 rounded-md border border-zinc-300 bg-white px-3 text-sm font-medium text-zinc-700 hover:bg-zinc-50">
        Apply
      </button>
    </form>
  );
}
