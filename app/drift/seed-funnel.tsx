import Link from 'next/link';
import { passRateLimit, removedBy, type Funnel, type FunnelDecision } from '@/lib/gate/index.ts';

const STAGE_COLOURS = ['var(--color-zinc-400)', 'var(--color-zinc-500)', 'var(--color-blue-600)', 'var(--color-indigo-600)'];

function CandidateList({ title, decisions, testId }: { title: string; decisions: FunnelDecision[]; testId: string }) {
  return (
    <details className="rounded-md border border-zinc-200" data-testid={testId}>
      <summary className="cursor-pointer px-3 py-1.5 text-xs font-medium text-zinc-700 hover:bg-zinc-50">
        {title} <span className="tabular-nums text-zinc-500">({decisions.length})</span>
      </summary>
      <ul className="max-h-48 overflow-y-auto border-t border-zinc-100 px-3 py-1 text-xs">
        {decisions.map((d) => (
          <li key={d.versionId} className="flex justify-between gap-3 py-0.5">
            <Link href={`/environments/${d.versionId}`} className="truncate text-blue-700 hover:underline">
              {d.name}
            </Link>
            <span className="shrink-0 tabular-nums text-zinc-500">
              {d.passes === null ? 'not probed' : `${d.passes}/${d.size} · ${d.meanTurns === null ? '–' : d.meanTurns.toFixed(1)} turns`}
            </span>
          </li>
        ))}
        {decisions.length === 0 && <li className="py-0.5 text-zinc-400">none</li>}
      </ul>
    </details>
  );
}

export function SeedFunnel({ funnel, run }: { funnel: Funnel; run: { policy: string; createdAt: string } | null }) {
  const top = Math.max(1, funnel.stages[0]?.count ?? 1);
  const t = funnel.thresholds;
  return (
    <div className="rounded-lg border border-zinc-200 bg-white p-4 shadow-xs" data-testid="seed-funnel">
      {funnel.undecidable && (
        <p role="note" data-testid="funnel-undecidable" className="mb-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {funnel.undecidable}: the counts below are not rejections.
        </p>
      )}
      <p className="mb-3 text-xs text-zinc-500">
        {run ? (
          <>
            Latest <code className="font-mono">envolve seeds filter</code> run, {run.createdAt.slice(0, 10)}, probes under{' '}
            <span className="font-medium text-zinc-700">{run.policy}</span>:
          </>
        ) : (
          <>
            No filter run stored yet (run <code className="font-mono">envolve seeds filter</code>); default thresholds over the stored probes:
          </>
        )}{' '}
        keep a candidate at pass rate ≤{' '}
        <span className="font-medium text-zinc-700" data-testid="threshold-passes">
          {passRateLimit(t)}
        </span>{' '}
        and mean turns ≥{' '}
        <span className="font-medium text-zinc-700" data-testid="threshold-turns">
          {t.minTurns}
        </span>
        .
      </p>
      <ol className="flex flex-col gap-1.5">
        {funnel.stages.map((stage, i) => (
          <li key={stage.key} className="grid grid-cols-[11rem_1fr] items-center gap-3 text-sm" data-testid="funnel-stage">
            <span className="truncate text-xs text-zinc-600">{stage.label}</span>
            <span className="flex items-center gap-2">
              <span className="h-5 rounded-sm" style={{ width: `${Math.max(0.5, (stage.count / top) * 100)}%`, background: STAGE_COLOURS[i] }} />
              <span className="text-xs font-semibold tabular-nums">{stage.count}</span>
            </span>
          </li>
        ))}
      </ol>
      <div className="mt-4 grid gap-2 sm:grid-cols-2">
        <CandidateList title={`Removed by pass rate > ${passRateLimit(t)}`} decisions={removedBy(funnel, 'pass-rate')} testId="removed-pass-rate" />
        <CandidateList title={`Removed by mean turns < ${t.minTurns}`} decisions={removedBy(funnel, 'turns')} testId="removed-turns" />
        <CandidateList title="Not probed" decisions={removedBy(funnel, 'unprobed')} testId="removed-unprobed" />
        <CandidateList title="Kept as seeds" decisions={funnel.decisions.filter((d) => d.kept)} testId="kept-seeds" />
      </div>
    </div>
  );
}
