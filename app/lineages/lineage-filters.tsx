import { LINEAGE_STATUSES } from '@/lib/states/index.ts';
import type { LineageListQuery } from '@/lib/dashboard/index.ts';

const FIELD = 'h-8 rounded-md border border-zinc-300 bg-white px-2 text-sm';

// A plain GET form: filtering works before (and without) JavaScript, and the URL is shareable.
export function LineageFilters({ query, synthesisers }: { query: LineageListQuery; synthesisers: string[] }) {
  return (
    <form role="search" action="/lineages" className="flex flex-wrap items-end gap-2">
      <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
        Search
        <input name="q" type="search" defaultValue={query.q ?? ''} placeholder="Lineage name" className={`${FIELD} w-56 placeholder:text-zinc-400`} />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
        Status
        <select name="status" defaultValue={query.status ?? ''} className={FIELD}>
          <option value="">any</option>
          {LINEAGE_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
        Synthesiser
        <select name="synthesiser" defaultValue={query.synthesiser ?? ''} className={FIELD}>
          <option value="">any</option>
          {synthesisers.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
        Sort by
        <select name="sort" defaultValue={query.sort} className={FIELD}>
          <option value="activity">last activity</option>
          <option value="name">name</option>
          <option value="generations">generations</option>
        </select>
      </label>
      <button type="submit" className="h-8 rounded-md border border-zinc-300 bg-white px-3 text-sm font-medium text-zinc-700 hover:bg-zinc-50">
        Apply
      </button>
    </form>
  );
}
