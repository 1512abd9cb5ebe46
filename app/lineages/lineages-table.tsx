'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { Route } from 'next';
import { formatTimestamp, lineageListSearch } from '@/lib/dashboard/browser.ts';
import { LINEAGE_SORT_DIRECTIONS, type LineageListItem, type LineageListPage, type LineageListQuery } from '@/lib/dashboard/browser.ts';
import type { SearchParamsLike } from '@/lib/dashboard/index.ts';
import { DataTable, type Column } from '../_components/data-table.tsx';
import { fetchJson } from '../_components/http.ts';
import { LIVE_LINEAGE_STATUSES, LineageStatusBadge } from './lineage-status-badge.tsx';
import { PassRateSparkline } from './pass-rate-sparkline.tsx';

// An evolving lineage gains a generation every few seconds; idle ones do not change.
const EVOLVING_REFETCH_MS = 5_000;

// The server sorts and pages (by every matching lineage's counts), so the sort keys are its sorts.
const COLUMNS: Column<LineageListItem>[] = [
  {
    header: 'Lineage',
    sort: { key: 'name', firstDir: LINEAGE_SORT_DIRECTIONS.name },
    cell: (lineage) => (
      <>
        <Link href={`/lineages/${lineage.id}` as Route} className="font-medium text-blue-700 hover:underline">
          {lineage.name}
        </Link>
        <div className="max-w-72 truncate text-xs text-zinc-500" title={lineage.seedName}>
          seed {lineage.seedName}
        </div>
      </>
    ),
  },
  { header: 'Status', cell: (lineage) => <LineageStatusBadge status={lineage.status} /> },
  {
    header: 'Generations',
    sort: { key: 'generations', firstDir: LINEAGE_SORT_DIRECTIONS.generations },
    className: 'text-right tabular-nums',
    cell: (lineage) => (
      <>
        {lineage.settledGenerations}
        {lineage.failedGenerations > 0 && <div className="text-xs text-red-700">+{lineage.failedGenerations} failed</div>}
      </>
    ),
  },
  { header: 'Frontier', className: 'tabular-nums', cell: (lineage) => (lineage.frontier === null ? '–' : `G${lineage.frontier}`) },
  { header: 'Synthesiser', className: 'text-zinc-700', cell: (lineage) => lineage.synthesiser },
  {
    header: 'Axis · effort',
    className: 'whitespace-nowrap text-zinc-700',
    cell: (lineage) => (
      <>
        {lineage.axisPolicy} · {lineage.effort}
      </>
    ),
  },
  { header: 'Validator pass rate', cell: (lineage) => <PassRateSparkline points={lineage.passRates} /> },
  {
    header: 'Last activity',
    sort: { key: 'activity', firstDir: LINEAGE_SORT_DIRECTIONS.activity },
    className: 'whitespace-nowrap tabular-nums text-zinc-700',
    cell: (lineage) => <time dateTime={lineage.lastActivity}>{formatTimestamp(lineage.lastActivity)}</time>,
  },
];

// Server-rendered rows of one page that keep themselves current while a lineage evolves.
export function LineagesTable({ initial, query, params }: { initial: LineageListPage; query: LineageListQuery; params: SearchParamsLike }) {
  const search = lineageListSearch(query);
  const { data } = useQuery({
    queryKey: ['lineages', search],
    queryFn: () => fetchJson<LineageListPage>(`/api/lineages${search}`),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.items.some((item) => LIVE_LINEAGE_STATUSES.includes(item.status)) ? EVOLVING_REFETCH_MS : false),
  });

  return (
    <DataTable
      label="Lineages"
      columns={COLUMNS}
      rows={data.items}
      rowKey={(lineage) => lineage.id}
      rowProps={() => ({ 'data-testid': 'lineage-row', className: 'align-middle hover:bg-zinc-50/60' })}
      url={{ path: '/lineages', params }}
      defaultSort={{ key: 'activity', dir: LINEAGE_SORT_DIRECTIONS.activity }}
      serverPage={{ page: data.page, pageSize: data.pageSize, total: data.total }}
      noun="lineages"
    />
  );
}
