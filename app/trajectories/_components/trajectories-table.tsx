import Link from 'next/link';
import type { Route } from 'next';
import { formatDuration, formatTimestamp } from '@/lib/dashboard/index.ts';
import { trajectoryListSearch, type TrajectoryListQuery } from '@/lib/trajectories/index.ts';
import type { TrajectoryListItem } from '@/lib/trajectories/index.ts';
import { FlagLabel, ReasonBadges, RewardPill } from './badges.tsx';

const TH = 'px-3 py-2 text-left text-xs font-medium uppercase tracking-wide text-zinc-500';
const TD = 'px-3 py-2 align-top';

// Each row links to the trajectory with the list's parameters, so n/p there walk this order.
export function TrajectoriesTable({ items, query }: { items: TrajectoryListItem[]; query: TrajectoryListQuery }) {
  const search = trajectoryListSearch({ ...query, page: 1 });
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full text-sm" data-testid="trajectories">
        <thead className="border-b border-zinc-200 bg-zinc-50">
          <tr>
            <th className={TH}>Reward</th>
            <th className={TH}>Environment</th>
            <th className={TH}>Lineage · gen</th>
            <th className={TH}>Policy</th>
            <th className={`${TH} text-right`}>Turns</th>
            <th className={`${TH} text-right`}>Duration</th>
            <th className={TH}>Why look</th>
            <th className={TH}>Started</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {items.map((item) => (
            <tr key={item.id} className="hover:bg-zinc-50" data-trajectory-id={item.id}>
              <td className={TD}>
                <RewardPill reward={item.reward} passed={item.passed} simulated={item.simulated} />
                {item.timedOut && <span className="ml-1 text-xs text-amber-700">timed out</span>}
              </td>
              <td className={TD}>
                <Link href={`/trajectories/${item.id}${search}` as Route} className="font-medium text-blue-700 hover:underline">
                  {item.environment}
                </Link>
                {item.compromised && (
                  <span className="ml-1">
                    <FlagLabel>compromised</FlagLabel>
                  </span>
                )}
              </td>
              <td className={`${TD} text-zinc-600`}>
                {item.lineageId ? (
                  <Link href={`/lineages/${item.lineageId}` as Route} className="hover:underline">
                    {item.lineageName ?? item.lineageId.slice(0, 8)}
                  </Link>
                ) : (
                  '—'
                )}
                {item.generationNumber !== null && <span className="tabular-nums"> · {item.generationNumber}</span>}
              </td>
              <td className={`${TD} text-zinc-600`}>
                {item.policy}
                {item.model && <span className="text-zinc-400"> · {item.model}</span>}
              </td>
              <td className={`${TD} text-right tabular-nums`}>
                {item.turns}
                {item.medianTurns !== null && <span className="text-xs text-zinc-400"> / {Math.round(item.medianTurns)}</span>}
              </td>
              <td className={`${TD} text-right tabular-nums`}>{formatDuration(item.durationMs)}</td>
              <td className={TD}>
                <span className="flex flex-wrap items-center gap-1">
                  {item.flaggedAt && <FlagLabel>flagged</FlagLabel>}
                  <ReasonBadges reasons={item.reasons} />
                </span>
              </td>
              <td className={`${TD} whitespace-nowrap text-xs text-zinc-500`}>{formatTimestamp(item.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
