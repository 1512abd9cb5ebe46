import type { Metadata } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { listTrajectories, trajectoryFacets, hasFilters, trajectoryListFromParams } from '@/lib/trajectories/index.ts';
import { TrajectoryFilters } from './_components/filters.tsx';
import { TrajectoriesTable } from './_components/trajectories-table.tsx';

export const metadata: Metadata = { title: 'Trajectories' };

export default async function TrajectoriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission('trajectories.read');
  const params = await searchParams;
  const query = trajectoryListFromParams(params);
  const db = await requestDb();
  const [page, facets] = await Promise.all([listTrajectories(db, query), trajectoryFacets(db)]);
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
        <TrajectoriesTable page={page} query={{ ...query, page: page.page }} params={params} />
      )}
    </div>
  );
}
