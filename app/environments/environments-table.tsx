'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { formatTimestamp, shortHash } from '@/lib/dashboard/format.ts';
import type { EnvironmentListItem } from '@/lib/dashboard/types.ts';
import { fetchJson, PENDING_REFETCH_MS } from '../_components/http.ts';
import { VerdictCell } from './verdict-cell.tsx';

// Server-rendered rows that keep themselves current while validations are pending.
export function EnvironmentsTable({ initial, query }: { initial: EnvironmentListItem[]; query: string }) {
  const { data } = useQuery({
    queryKey: ['environments', query],
    queryFn: () =>
      fetchJson<{ environments: EnvironmentListItem[] }>(
        `/api/environments${query ? `?q=${encodeURIComponent(query)}` : ''}`,
      ).then((body) => body.environments),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.some((env) => env.validationPending) ? PENDING_REFETCH_MS : false),
  });

  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="min-w-full text-sm">
        <caption className="sr-only">Environment versions with their latest validator verdicts</caption>
        <thead className="border-b border-zinc-200 bg-zinc-50 text-left text-xs font-medium uppercase tracking-wide text-zinc-500">
          <tr>
            <th scope="col" className="px-4 py-2">Environment</th>
            <th scope="col" className="px-4 py-2">Source</th>
            <th scope="col" className="px-4 py-2">Created</th>
            <th scope="col" className="px-4 py-2 text-right">Files</th>
            <th scope="col" className="px-4 py-2">Oracle</th>
            <th scope="col" className="px-4 py-2">Invalid test</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {data.map((env) => (
            <tr key={env.id} className="align-top hover:bg-zinc-50/60" data-testid="environment-row">
              <td className="px-4 py-3">
                <Link href={`/environments/${env.id}`} className="font-medium text-blue-700 hover:underline">
                  {env.name}
                </Link>
                <div className="font-mono text-xs text-zinc-500" title={env.id}>
                  {shortHash(env.id)}
                </div>
              </td>
              <td className="px-4 py-3 text-zinc-700">{env.source}</td>
              <td className="whitespace-nowrap px-4 py-3 text-zinc-700 tabular-nums">
                <time dateTime={env.createdAt}>{formatTimestamp(env.createdAt)}</time>
              </td>
              <td className="px-4 py-3 text-right tabular-nums text-zinc-700">{env.fileCount}</td>
              <td className="px-4 py-3" data-testid="oracle-verdict">
                <VerdictCell summary={env.oracle} pending={env.validationPending} />
              </td>
              <td className="px-4 py-3" data-testid="invalid-test-verdict">
                <VerdictCell summary={env.invalidTest} pending={env.validationPending} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
