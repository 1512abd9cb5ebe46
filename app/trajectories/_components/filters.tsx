import type { TrajectoryListQuery, TrajectoryFacets } from '@/lib/trajectories/index.ts';

const FIELD = 'h-8 rounded-md border border-zinc-300 bg-white px-2 text-sm';
const NUMBER = `${FIELD} w-20 tabular-nums`;
const LABEL = 'flex flex-col gap-1 text-xs font-medium text-zinc-600';

function YesNo({ name, label, value }: { name: string; label: string; value: string | undefined }) {
  return (
    <label className={LABEL}>
      {label}
      <select name={name} defaultValue={value ?? ''} className={FIELD}>
        <option value="">either</option>
        <option value="yes">yes</option>
        <option value="no">no</option>
      </select>
    </label>
  );
}

// A plain GET form: the URL is the state, so every filtered view is a shareable link.
export function TrajectoryFilters({ query, facets }: { query: TrajectoryListQuery; facets: TrajectoryFacets }) {
  const str = (value: number | undefined) => (value === undefined ? '' : String(value));
  return (
    <form role="search" action="/trajectories" className="flex flex-wrap items-end gap-2 rounded-lg border border-zinc-200 bg-white p-3">
      <label className={LABEL}>
        Sort by
        <select name="sort" defaultValue={query.sort} className={FIELD}>
          <option value="reward">reward</option>
          <option value="suspicious">suspicious</option>
          <option value="newest">newest</option>
          <option value="turns">turns</option>
          <option value="duration">duration</option>
        </select>
      </label>
      <label className={LABEL}>
        Order
        <select name="dir" defaultValue={query.dir} className={FIELD}>
          <option value="desc">descending (highest first)</option>
          <option value="asc">ascending (lowest first)</option>
        </select>
      </label>
      <label className={LABEL}>
        Environment
        <input
          name="env"
          list="trajectory-envs"
          defaultValue={query.env ?? ''}
          placeholder="name contains"
          className={`${FIELD} w-44 placeholder:text-zinc-400`}
        />
        <datalist id="trajectory-envs">
          {facets.environments.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </label>
      <label className={LABEL}>
        Lineage
        <select name="lineage" defaultValue={query.lineage ?? ''} className={`${FIELD} max-w-44`}>
          <option value="">any</option>
          {facets.lineages.map((lineage) => (
            <option key={lineage.id} value={lineage.id}>
              {lineage.name}
            </option>
          ))}
        </select>
      </label>
      <label className={LABEL}>
        Generation
        <input name="generation" type="number" min={0} defaultValue={str(query.generation)} className={NUMBER} />
      </label>
      <label className={LABEL}>
        Policy
        <select name="policy" defaultValue={query.policy ?? ''} className={FIELD}>
          <option value="">any</option>
          {facets.policies.map((policy) => (
            <option key={policy} value={policy}>
              {policy}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="flex items-end gap-1">
        <label className={LABEL}>
          Reward ≥
          <input name="rewardMin" type="number" step="any" defaultValue={str(query.rewardMin)} className={NUMBER} />
        </label>
        <label className={LABEL}>
          ≤
          <input name="rewardMax" type="number" step="any" defaultValue={str(query.rewardMax)} className={NUMBER} />
        </label>
      </fieldset>
      <fieldset className="flex items-end gap-1">
        <label className={LABEL}>
          Turns ≥
          <input name="turnsMin" type="number" min={0} defaultValue={str(query.turnsMin)} className={NUMBER} />
        </label>
        <label className={LABEL}>
          ≤
          <input name="turnsMax" type="number" min={0} defaultValue={str(query.turnsMax)} className={NUMBER} />
        </label>
      </fieldset>
      <fieldset className="flex items-end gap-1">
        <label className={LABEL}>
          Seconds ≥
          <input name="durationMin" type="number" min={0} step="any" defaultValue={str(query.durationMin)} className={NUMBER} />
        </label>
        <label className={LABEL}>
          ≤
          <input name="durationMax" type="number" min={0} step="any" defaultValue={str(query.durationMax)} className={NUMBER} />
        </label>
      </fieldset>
      <YesNo name="passed" label="Passed" value={query.passed} />
      <YesNo name="timedOut" label="Timed out" value={query.timedOut} />
      <YesNo name="simulated" label="Simulated" value={query.simulated} />
      <YesNo name="flagged" label="Flagged" value={query.flagged} />
      {query.version && <input type="hidden" name="version" value={query.version} />}
      <button type="submit" className="h-8 rounded-md bg-zinc-900 px-3 text-sm font-medium text-white hover:bg-zinc-700">
        Apply
      </button>
      {/* A full load, so the form's uncontrolled fields start empty again. */}
      {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- see above */}
      <a href="/trajectories" className="h-8 px-2 text-sm leading-8 text-zinc-600 hover:underline">
        Reset
      </a>
    </form>
  );
}
