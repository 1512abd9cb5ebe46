'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { formatTimestamp, shortHash } from '@/lib/dashboard/browser.ts';
import type { EnvironmentListItem, SearchParamsLike } from '@/lib/dashboard/index.ts';
import { DataTable, type Column } from '../_components/data-table.tsx';
import { fetchJson, PENDING_REFETCH_MS } from '../_components/http.ts';
import { VerdictCell } from './verdict-cell.tsx';

const COLUMNS: Column<EnvironmentListItem>[] = [
  {
    header: 'Environment',
    sort: { key: 'name', value: (env) => env.name },
    cell: (env) => (
      <>
        <Link href={`/environments/${env.id}`} className="font-medium text-blue-700 hover:underline">
          {env.name}
        </Link>
        <div className="font-mono text-xs text-zinc-500" title={env.id}>
          {shortHash(env.id)}
        </div>
      </>
    ),
  },
  { header: 'Source', sort: { key: 'source', value: (env) => env.source }, cell: (env) => env.source, className: 'text-zinc-700' },
  {
    header: 'Created',
    sort: { key: 'created', value: (env) => Date.parse(env.createdAt), firstDir: 'desc' },
    cell: (env) => <time dateTime={env.createdAt}>{formatTimestamp(env.createdAt)}</time>,
    className: 'whitespace-nowrap text-zinc-700 tabular-nums',
  },
  {
    header: 'Files',
    sort: { key: 'files', value: (env) => env.fileCount, firstDir: 'desc' },
    cell: (env) => env.fileCount,
    className: 'text-right tabular-nums text-zinc-700',
  },
  {
    header: 'Oracle',
    cell: (env) => (
      <span data-testid="oracle-verdict">
        <VerdictCell summary={env.oracle} pending={env.validationPending} />
      </span>
    ),
  },
  {
    header: 'Invalid test',
    cell: (env) => (
      <span data-testid="invalid-test-verdict">
        <VerdictCell summary={env.invalidTest} pending={env.validationPending} />
      </span>
    ),
  },
];

// Server-rendered rows that keep themselves current while validations are pending.
export function EnvironmentsTable({ initial, query, params }: { initial: EnvironmentListItem[]; query: string; params: SearchParamsLike }) {
  const { data } = useQuery({
    queryKey: ['environments', query],
    queryFn: () =>
      fetchJson<{ environments: EnvironmentListItem[] }>(`/api/environments${query ? `?q=${encodeURIComponent(query)}` : ''}`).then(
        (body) => body.environments,
      ),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.some((env) => env.validationPending) ? PENDING_REFETCH_MS : false),
  });

  return (
    <DataTable
      label="Environment versions with their latest validator verdicts"
      columns={COLUMNS}
      rows={data}
      rowKey={(env) => env.id}
      url={{ path: '/environments', params }}
      defaultSort={{ key: 'created', dir: 'desc' }}
      noun="versions"
      rowProps={() => ({ 'data-testid': 'environment-row', className: 'align-top hover:bg-zinc-50/60' })}
      empty="No environment versions."
    />
  );
}
