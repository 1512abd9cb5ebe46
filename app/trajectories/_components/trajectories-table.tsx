import Link from 'next/link';
import type { Route } from 'next';
import { DataTable, type Column } from '@/app/_components/data-table.tsx';
import { formatDuration, formatTimestamp } from '@/lib/dashboard/index.ts';
import type { SearchParamsLike } from '@/lib/dashboard/index.ts';
import { trajectoryListSearch, type TrajectoryListQuery } from '@/lib/trajectories/index.ts';
import type { TrajectoryListItem, TrajectoryListPage } from '@/lib/trajectories/index.ts';
import { FlagLabel, ReasonBadges, RewardPill } from './badges.tsx';

// The server orders by each of these keys either way, by keyset: a first click on a header sorts
// highest first, a second click on the same header lowest first.
function columns(search: string): Column<TrajectoryListItem>[] {
  return [
    {
      header: 'Reward',
      sort: { key: 'reward', firstDir: 'desc' },
      className: 'align-top',
      cell: (item) => (
        <>
          <RewardPill reward={item.reward} passed={item.passed} simulated={item.simulated} />
          {item.timedOut && <span className="ml-1 text-xs text-amber-700">timed out</span>}
        </>
      ),
    },
    {
      header: 'Environment',
      className: 'align-top',
      cell: (item) => (
        <>
          <Link href={`/trajectories/${item.id}${search}` as Route} className="font-medium text-blue-700 hover:underline">
            {item.environment}
          </Link>
          {item.compromised && (
            <span className="ml-1">
              <FlagLabel>compromised</FlagLabel>
            </span>
          )}
        </>
      ),
    },
    {
      header: 'Lineage · gen',
      className: 'align-top text-zinc-600',
      cell: (item) => (
        <>
          {item.lineageId ? (
            <Link href={`/lineages/${item.lineageId}` as Route} className="hover:underline">
              {item.lineageName ?? item.lineageId.slice(0, 8)}
            </Link>
          ) : (
            '—'
          )}
          {item.generationNumber !== null && <span className="tabular-nums"> · {item.generationNumber}</span>}
        </>
      ),
    },
    {
      header: 'Policy',
      className: 'align-top text-zinc-600',
      cell: (item) => (
        <>
          {item.policy}
          {item.model && <span className="text-zinc-400"> · {item.model}</span>}
        </>
      ),
    },
    {
      header: 'Turns',
      sort: { key: 'turns', firstDir: 'desc' },
      className: 'align-top text-right tabular-nums',
      cell: (item) => (
        <>
          {item.turns}
          {item.medianTurns !== null && <span className="text-xs text-zinc-400"> / {Math.round(item.medianTurns)}</span>}
        </>
      ),
    },
    {
      header: 'Duration',
      sort: { key: 'duration', firstDir: 'desc' },
      className: 'align-top text-right tabular-nums',
      cell: (item) => formatDuration(item.durationMs),
    },
    {
      header: 'Why look',
      sort: { key: 'suspicious', firstDir: 'desc' },
      className: 'align-top',
      cell: (item) => (
        <span className="flex flex-wrap items-center gap-1">
          {item.flaggedAt && <FlagLabel>flagged</FlagLabel>}
          <ReasonBadges reasons={item.reasons} />
        </span>
      ),
    },
    {
      header: 'Started',
      sort: { key: 'newest', firstDir: 'desc' },
      className: 'align-top whitespace-nowrap text-xs text-zinc-500',
      cell: (item) => formatTimestamp(item.createdAt),
    },
  ];
}

// Each row links to the trajectory with the list's parameters, so n/p there walk this order.
export function TrajectoriesTable({ page, query, params }: { page: TrajectoryListPage; query: TrajectoryListQuery; params: SearchParamsLike }) {
  return (
    <DataTable
      label="Trajectories"
      testId="trajectories"
      columns={columns(trajectoryListSearch({ ...query, page: 1 }))}
      rows={page.items}
      rowKey={(item) => item.id}
      rowProps={(item) => ({ 'data-trajectory-id': item.id })}
      url={{ path: '/trajectories', params }}
      defaultSort={{ key: 'reward', dir: 'desc' }}
      serverPage={{ page: page.page, pageSize: page.pageSize, total: page.total }}
      noun="trajectories"
    />
  );
}
