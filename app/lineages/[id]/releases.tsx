import Link from 'next/link';
import type { Route } from 'next';
import type { LineageTree, TreeProbe } from '@/lib/dashboard/lineages-types.ts';

function PassRate({ probe }: { probe: TreeProbe | null }) {
  if (!probe) return <span className="text-zinc-400">no group</span>;
  return (
    <span className="tabular-nums">
      {probe.passes}/{probe.size} <span className="text-zinc-500">({((probe.passes / probe.size) * 100).toFixed(1)}%)</span>
    </span>
  );
}

// The seed and every released generation: which policy's group released it under which rule,
// and the pass rate of the viewed policy (a plain GET form picks it; default: the probe policy).
export function Releases({ tree }: { tree: LineageTree }) {
  const released = tree.generations.filter((g) => g.release !== null);
  const cell = 'px-3 py-1.5 text-left';
  return (
    <section aria-labelledby="releases" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h2 id="releases" className="text-sm font-semibold">
          Releases and pass rates
        </h2>
        <form key={tree.policy} action={`/lineages/${tree.id}`} className="flex items-end gap-2 text-xs">
          <label className="flex flex-col gap-1 font-medium text-zinc-600">
            Pass rates of policy
            <select name="policy" defaultValue={tree.policy} className="h-8 rounded-md border border-zinc-300 bg-white px-2 text-sm" data-testid="policy-view">
              {tree.policies.map((p) => (
                <option key={p} value={p}>
                  {p}
                  {p === tree.gate.policy ? ' (probe policy)' : ''}
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
            <th className={cell}>Rule it passed</th>
            <th className={cell}>Pass rate ({tree.policy})</th>
          </tr>
        </thead>
        <tbody>
          <tr className="border-t border-zinc-100" data-testid="release-G0">
            <td className={cell}>G0 (seed)</td>
            <td className={cell}>released from the start</td>
            <td className={cell}>–</td>
            <td className={cell}>
              <PassRate probe={tree.seed.probe} />
            </td>
          </tr>
          {released.map((g) => {
            const r = g.release!;
            return (
              <tr key={g.id} className="border-t border-zinc-100" data-testid={`release-G${g.number}`}>
                <td className={cell}>
                  <Link href={`/generations/${g.id}` as Route} className="text-blue-700 hover:underline">
                    G{g.number}
                  </Link>
                </td>
                <td className={cell} data-testid="released-by">
                  {r.policy === null ? (
                    <span className="text-zinc-500">not recorded (released before policies were)</span>
                  ) : (
                    <>
                      {r.policy}
                      {r.simulated && (
                        <span className="ml-1.5 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">simulated — demo mode</span>
                      )}
                    </>
                  )}
                </td>
                <td className={`${cell} tabular-nums`}>
                  {r.passes === null ? '–' : `${r.passes}/${r.size} ≥ ${((r.releaseRate ?? 0) * 100).toFixed(1)}%, group ≥ ${r.minGroup}`}
                </td>
                <td className={cell}>
                  <PassRate probe={g.probe} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
