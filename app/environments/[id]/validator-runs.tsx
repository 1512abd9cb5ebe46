'use client';

import { useQuery } from '@tanstack/react-query';
import type { EnvironmentDetail } from '@/lib/dashboard/index.ts';
import { fetchJson, PENDING_REFETCH_MS } from '../../_components/http.ts';
import { VerdictBadge } from '../../_components/verdict-badge.tsx';
import { ValidatorRunCard } from './validator-run-card.tsx';

type RunsState = Pick<EnvironmentDetail, 'runs' | 'validationPending'>;

// Every validator run of the version, newest first, refreshed while a validation is pending.
export function ValidatorRuns({ versionId, initial }: { versionId: string; initial: RunsState }) {
  const { data } = useQuery({
    queryKey: ['environment', versionId],
    queryFn: () =>
      fetchJson<{ environment: EnvironmentDetail }>(`/api/environments/${versionId}`).then(({ environment }): RunsState => ({
        runs: environment.runs,
        validationPending: environment.validationPending,
      })),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.validationPending ? PENDING_REFETCH_MS : false),
  });

  return (
    <section aria-labelledby="runs-heading" className="flex flex-col gap-3">
      <div className="flex items-center gap-2">
        <h2 id="runs-heading" className="text-sm font-semibold">
          Validator runs <span className="font-normal text-zinc-500">({data.runs.length})</span>
        </h2>
        {data.validationPending && <VerdictBadge verdict={null} pending />}
      </div>
      {data.runs.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 bg-white px-4 py-6 text-sm text-zinc-600">
          Not validated yet. Run <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-xs">npx envolve env validate {versionId}</code>
        </p>
      ) : (
        data.runs.map((run) => <ValidatorRunCard key={run.id} run={run} />)
      )}
    </section>
  );
}
