'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { Route } from 'next';
import { formatTimestamp, lineageListSearch } from '@/lib/dashboard/browser.ts';
import type { LineageListPage, LineageListQuery, LineageSort } from '@/lib/dashboard/index.ts';
import { fetchJson } from '../_components/http.ts';
import { LineageStatusBadge } from './lineage-status-badge.tsx';
import { PassRateSparkline } from './pass-rate-sparkline.tsx';

// An evolving lineage gains a generation every few seconds; idle ones do not change.
const EVOLVING_REFETCH_MS = 5_000;

function SortHeader({ query, sort, children, align = 'left' }: { query: LineageListQuery; sort: LineageSort; children: string; align?: 'left' | 'right' }) {
  const active = query.sort === sort;
  return (
    <th scope="col" aria-sort={active ? 'descending' : undefined} className={`px-3 py-2 ${align === 'right' ? 'text-right' : ''}`}>
      <Link
        href={`/lineages${lineageListSearch(query, { sort, page: 1 })}` as Route}
        className={`hover:text-zinc-900 ${active ? 'text-zinc-900 underline decoration-zinc-400 underline-offset-4' : ''}`}
      >
        {children}
      </Link>
    </th>
  );
}

// Server-rendered rows of one page that keep themselves current while a lineage evolves.
export function LineagesTable({ initial, query }: { initial: LineageListPage; query: LineageListQuery }) {
  const search = lineageListSearch(query);
  const { data } = useQuery({
    queryKey: ['lineages', search],
    queryFn: () => fetchJson<LineageListPage>(`/api/lineages${search}`),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.items.some((item) => item.status === 'evolving') ? EVOLVING_REFETCH_MS : false),
  });

  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="min-w-full text-sm">
        <caption className="sr-only">Lineages, sorted by {query.sort}</caption>
        <thead className="border-b border-zinc-200 bg-zinc-50 text-left text-xs font-medium uppercase tracking-wide text-zinc-500">
          <tr>
            <SortHeader query={query} sort="name">
              Lineage
            </SortHeader>
            <th scope="col" className="px-3 py-2">
              Status
            </th>
            <SortHeader query={query} sort="generations" align="right">
              Generations
            </SortHeader>
            <th scope="col" className="px-3 py-2">
              Frontier
            </th>
            <th scope="col" className="px-3 py-2">
              Synthesiser
            </th>
            <th scope="col" className="px-3 py-2">
              Axis · effort
            </th>
            <th scope="col" className="px-3 py-2">
              Validator pass rate
            </th>
            <SortHeader query={query} sort="activity">
              Last activity
            </SortHeader>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {data.items.map((lineage) => (
            <tr key={lineage.id} className="align-middle hover:bg-zinc-50/60" data-testid="lineage-row">
              <td className="px-3 py-2.5">
                <Link href={`/lineages/${lineage.id}` as Route} className="font-medium text-blue-700 hover:underline">
                  {lineage.name}
                </Link>
                <div className="max-w-72 truncate text-xs text-zinc-500" title={lineage.seedName}>
                  seed {lineage.seedName}
                </div>
              </td>
              <td className="px-3 py-2.5">
                <LineageStatusBadge status={lineage.status} />
              </td>
              <td className="px-3 py-2.5 text-right tabular-nums">
                {lineage.settledGenerations}
                {lineage.failedGenerations > 0 && <div className="text-xs text-red-700">+{lineage.failedGenerations} failed</div>}
              </td>
              <td className="px-3 py-2.5 tabular-nums">{lineage.frontier === null ? '–' : `G${lineage.frontier}`}</td>
              <td className="px-3 py-2.5 text-zinc-700">{lineage.synthesiser}</td>
              <td className="whitespace-nowrap px-3 py-2.5 text-zinc-700">
                {lineage.axisPolicy} · {lineage.effort}
              </td>
              <td className="px-3 py-2.5">
                <PassRateSparkline points={lineage.passRates} />
              </td>
              <td className="whitespace-nowrap px-3 py-2.5 tabular-nums text-zinc-700">
                <time dateTime={lineage.lastActivity}>{formatTimestamp(lineage.lastActivity)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
