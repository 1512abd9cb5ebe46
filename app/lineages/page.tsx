import type { Metadata } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { listLineages, lineageListFromSearchParams } from '@/lib/dashboard/index.ts';
import { LineageFilters } from './lineage-filters.tsx';
import { LineagesTable } from './lineages-table.tsx';

export const metadata: Metadata = { title: 'Lineages' };

export default async function LineagesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission('dashboard.read');
  const params = await searchParams;
  const query = lineageListFromSearchParams(params);
  const page = await listLineages(await requestDb(), query);
  const filtered = Boolean(query.q || query.status || query.synthesiser);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-lg font-semibold tracking-tight">Lineages</h1>
          <p className="text-sm text-zinc-500">Seeds and the generations evolved from them.</p>
        </div>
        <LineageFilters query={query} synthesisers={page.synthesisers} />
      </div>
      {page.total > 0 ? (
        <LineagesTable initial={page} query={{ ...query, page: page.page }} params={params} />
      ) : (
        <p className="rounded-lg border border-dashed border-zinc-300 bg-white px-4 py-8 text-center text-sm text-zinc-600">
          {filtered ? (
            'No lineage matches these filters.'
          ) : (
            <>
              No lineages yet. Start one with{' '}
              <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-xs">npx envolve evolve &lt;seed version id&gt;</code>
            </>
          )}
        </p>
      )}
    </div>
  );
}
