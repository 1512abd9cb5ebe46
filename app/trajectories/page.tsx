import type { Metadata } from 'next';
import Link from 'next/link';
import type { Route } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { listTrajectories, trajectoryFacets, hasFilters, trajectoryListFromParams, trajectoryListSearch } from '@/lib/trajectories/index.ts';
import { TrajectoryFilters } from './_components/filters.tsx';
import { TrajectoriesTable } from './_components/trajectories-table.tsx';

export const metadata: Metadata = { title: 'Trajectories' };

const LINK = 'rounded-md border border-zinc-300 bg-white px-2.5 py-1 font-medium text-zinc-700 hover:bg-zinc-50';
const DISABLED = 'rounded-md border border-zinc-200 px-2.5 py-1 text-zinc-400';

export default async function TrajectoriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission('trajectories.read');
  const query = trajectoryListFromParams(await searchParams);
  const db = await requestDb();
  const [page, facets] = await Promise.all([listTrajectories(db, query), trajectoryFacets(db)]);
  const href = (target: number) => `/trajectories${trajectoryListSearch(query, { page: target })}` as Route;
  const first = page.total === 0 ? 0 : (page.page - 1) * page.pageSize + 1;
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Trajectories</h1>
        <p className="text-sm text-zinc-500">
          Every rollout, highest reward first: reward hacking hides at the top. Sort by “suspicious” to see high rewards reached in few turns, without changing
          any file, or by touching /logs or the tests.
        </p>
      </div>
      <TrajectoryFilters query={query} facets={facets} />
      {page.total === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 bg-white px-4 py-8 text-center text-sm text-zinc-600">
          {hasFilters(query) ? 'No trajectory matches these filters.' : 'No trajectories yet: probes and trainer reports record them.'}
        </p>
      ) : (
        <>
          <TrajectoriesTable items={page.items} query={{ ...query, page: page.page }} />
          <nav aria-label="Pages" className="flex items-center justify-between gap-3 text-sm">
            <p className="tabular-nums text-zinc-600" data-testid="list-range">
              {first}–{first + page.items.length - 1} of {page.total} trajectories
            </p>
            <div className="flex items-center gap-2">
              {page.page > 1 ? (
                <Link href={href(page.page - 1)} rel="prev" className={LINK}>
                  Previous
                </Link>
              ) : (
                <span className={DISABLED}>Previous</span>
              )}
              <span className="tabular-nums text-zinc-600">
                Page {page.page} of {page.pageCount}
              </span>
              {page.page < page.pageCount ? (
                <Link href={href(page.page + 1)} rel="next" className={LINK}>
                  Next
                </Link>
              ) : (
                <span className={DISABLED}>Next</span>
              )}
            </div>
          </nav>
        </>
      )}
    </div>
  );
}
