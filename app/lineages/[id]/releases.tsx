import Link from 'next/link';
import type { Route } from 'next';
import type { LineageTree, TreeGeneration, TreeProbe } from '@/lib/dashboard/index.ts';

// The generation's own newest group of the viewed policy, with the checkpoint that made it; a
// group of the gating policy that is not of its newest version says so (it cannot release anything).
function OwnGroup({ probe, tree }: { probe: TreeProbe | null; tree: LineageTree }) {
  if (!probe) return <span className="text-zinc-400">no group</span>;
  const stale = probe.policy === tree.gate.policy && tree.policyVersion !== null && probe.policyVersion !== tree.policyVersion;
  return (
    <span className="tabular-nums">
      {probe.passes}/{probe.size} rollouts passed <span className="text-zinc-500">({((probe.passes / probe.size) * 100).toFixed(1)}%)</span>
      {probe.policyVersion && (
        <>
          {' '}
          <span className="text-xs text-zinc-500" data-testid="own-checkpoint">
            · checkpoint {probe.policyVersion}
          </span>
        </>
      )}
      {stale && <span className="ml-1.5 rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700">older checkpoint</span>}
    </span>
  );
}

function ReleasedBy({ g }: { g: TreeGeneration }) {
  const r = g.release!;
  if (r.policy === null) return <span className="text-zinc-500">not recorded (released before policies were)</span>;
  return (
    <>
      {r.policy}
      {r.simulated && <span className="ml-1.5 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">simulated — demo mode</span>}
      {r.reportedBy && (
        <span className="ml-1.5 text-xs text-zinc-500" data-testid="reported-by">
          reported by {r.reportedBy.email ?? 'a deleted user'}
          {r.reportedBy.token !== null && <> with token “{r.reportedBy.token}”</>}
        </span>
      )}
    </>
  );
}

function ReleasingGroup({ g }: { g: TreeGeneration }) {
  const r = g.release!;
  if (r.passes === null) return <>–</>;
  return (
    <>
      {`G${g.number - 1}'s group ${r.passes}/${r.size} ≥ ${((r.releaseRate ?? 0) * 100).toFixed(1)}% (groups of ≥ ${r.minGroup} rollouts)`}
      {r.policyVersion && (
        <>
          {' '}
          <span className="text-xs text-zinc-500" data-testid="release-checkpoint">
            · checkpoint {r.policyVersion}
          </span>
        </>
      )}
    </>
  );
}

// The seed, every released generation and every approved one still waiting. Each number says whose
// group it is: a release is decided by the previous generation's group (the frontier it advanced
// from); "its own group" is the generation's own, which decides the release of the one after it.
export function Releases({ tree }: { tree: LineageTree }) {
  const rows = tree.generations.filter((g) => g.release !== null || g.wait !== null);
  const cell = 'px-3 py-1.5 text-left';
  return (
    <section aria-labelledby="releases" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h2 id="releases" className="text-sm font-semibold">
          Releases, pass rates and what approved generations wait for
        </h2>
        <form key={tree.policy} action={`/lineages/${tree.id}`} className="flex items-end gap-2 text-xs">
          <label className="flex flex-col gap-1 font-medium text-zinc-600">
            Pass rates of policy
            <select name="policy" defaultValue={tree.policy} className="h-8 rounded-md border border-zinc-300 bg-white px-2 text-sm" data-testid="policy-view">
              {tree.policies.map((p) => (
                <option key={p} value={p}>
                  {p}
                  {p === tree.gate.policy ? ' (gating policy)' : ''}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="h-8 rounded-md border border-zinc-300 bg-white px-3 text-sm">
            Show
          </button>
        </form>
      </div>
      <table className="w-full text-sm" data-testid="releases">
        <thead className="text-xs text-zinc-500">
          <tr>
            <th className={cell}>Generation</th>
            <th className={cell}>Released by</th>
            <th className={cell}>The group that released it (the previous generation&rsquo;s)</th>
            <th className={cell}>Its own group ({tree.policy}), which decides the next release</th>
            <th className={cell}>Waits for</th>
          </tr>
        </thead>
        <tbody>
          <tr className="border-t border-zinc-100" data-testid="release-G0">
            <td className={cell}>G0 (seed)</td>
            <td className={cell}>released from the start</td>
            <td className={cell}>–</td>
            <td className={cell}>
              <OwnGroup probe={tree.seed.probe} tree={tree} />
            </td>
            <td className={cell}>–</td>
          </tr>
          {rows.map((g) => (
            <tr key={g.id} className="border-t border-zinc-100" data-testid={`release-G${g.number}`}>
              <td className={cell}>
                <Link href={`/generations/${g.id}` as Route} className="text-blue-700 hover:underline">
                  G{g.number}
                </Link>
              </td>
              <td className={cell} data-testid="released-by">
                {g.release ? <ReleasedBy g={g} /> : <span className="text-zinc-500">approved, not released</span>}
              </td>
              <td className={`${cell} tabular-nums`}>{g.release ? <ReleasingGroup g={g} /> : '–'}</td>
              <td className={cell}>
                <OwnGroup probe={g.probe} tree={tree} />
              </td>
              <td className={cell} data-testid="waits-for">
                {g.wait ?? '–'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
