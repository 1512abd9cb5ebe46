import type { Metadata } from 'next';
import { buttonClass } from '@/app/_components/ui.ts';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { ENVIRONMENT_LIST_LIMIT, listEnvironments, environmentSearchSchema } from '@/lib/dashboard/index.ts';
import { EnvironmentsTable } from './environments-table.tsx';
import { ImportHint } from './import-hint.tsx';

export const metadata: Metadata = { title: 'Environments' };

export default async function EnvironmentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission('dashboard.read');
  const params = await searchParams;
  const raw = params.q;
  // An over-long or repeated ?q= is not worth an error page: search for nothing instead.
  const parsed = environmentSearchSchema.safeParse({ q: Array.isArray(raw) ? raw[0] : raw });
  const query = parsed.success ? (parsed.data.q ?? '') : '';
  const environments = await listEnvironments(await requestDb(), { nameContains: query || undefined });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-lg font-semibold tracking-tight">Environments</h1>
          <p className="text-sm text-zinc-500">Immutable environment versions and the latest verdict of each validator.</p>
        </div>
        <form role="search" action="/environments" className="flex items-center gap-2">
          <label htmlFor="environment-search" className="sr-only">
            Search environments by name
          </label>
          <input
            id="environment-search"
            name="q"
            type="search"
            defaultValue={query}
            placeholder="Search by name"
            className="h-8 w-64 rounded-md border border-zinc-300 bg-white px-2.5 text-sm placeholder:text-zinc-400"
          />
          <button type="submit" className={buttonClass}>
            Search
          </button>
        </form>
      </div>

      {environments.length > 0 ? (
        <>
          <EnvironmentsTable initial={environments} query={query} params={params} />
          {environments.length === ENVIRONMENT_LIST_LIMIT && (
            <p className="text-xs text-zinc-500">Showing the newest {ENVIRONMENT_LIST_LIMIT} versions; search by name to find older ones.</p>
          )}
        </>
      ) : query ? (
        <p className="rounded-lg border border-dashed border-zinc-300 bg-white px-4 py-8 text-center text-sm text-zinc-600">
          No environment name contains “{query}”.
        </p>
      ) : (
        <ImportHint />
      )}
    </div>
  );
}
