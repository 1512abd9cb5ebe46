import type { ReactNode } from 'react';
import { formatDuration, formatTimestamp, shortHash } from '@/lib/dashboard/browser.ts';
import type { ValidatorRunRow } from '@/lib/dashboard/index.ts';
import { RewardText, VerdictBadge } from '../../_components/verdict-badge.tsx';
import { RunLog } from './run-log.tsx';
import { SolutionCheckTable } from './solution-check-report.tsx';

const KIND_LABELS: Record<string, string> = {
  oracle: 'Oracle',
  'invalid-test': 'Invalid test (nop)',
  'counter-check': 'Counter-check (earlier solutions)',
  'near-miss': 'Near misses',
  rubric: 'Rubric',
};

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="text-sm text-zinc-800">{children}</dd>
    </div>
  );
}

function Mono({ value }: { value: string | null }) {
  if (value === null) return <span className="text-zinc-400">—</span>;
  return (
    <span className="font-mono text-xs" title={value}>
      {shortHash(value)}
    </span>
  );
}

// Sandbox facts as compact chips; a containment flag that fired ("true") stands out.
function ContainmentFacts({ entries }: { entries: ValidatorRunRow['containment'] }) {
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-xs">
      <span className="text-zinc-500">Sandbox</span>
      {entries.map((entry) => (
        <span
          key={entry.key}
          className={`rounded px-1.5 py-0.5 font-mono ${entry.value === 'true' ? 'bg-amber-100 text-amber-900' : 'bg-zinc-100 text-zinc-700'}`}
        >
          {entry.key} {entry.value}
        </span>
      ))}
    </div>
  );
}

export function ValidatorRunCard({ run }: { run: ValidatorRunRow }) {
  return (
    <article
      aria-label={`${KIND_LABELS[run.kind] ?? run.kind} run ${run.id}`}
      data-testid={`run-${run.kind}`}
      className="rounded-lg border border-zinc-200 bg-white"
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-zinc-100 px-4 py-2.5">
        <h3 className="text-sm font-semibold">{KIND_LABELS[run.kind] ?? run.kind}</h3>
        <VerdictBadge verdict={run.label} />
        {run.judged && <span className="text-xs text-zinc-700">{run.judged}</span>}
        <span className="text-xs text-zinc-600">{run.status}</span>
        <span className="text-xs text-zinc-600">
          <RewardText reward={run.reward} expected={run.expectedReward} />
        </span>
        <span className="ml-auto text-xs text-zinc-500 tabular-nums">
          <time dateTime={run.createdAt}>{formatTimestamp(run.createdAt)}</time>
          <span className="ml-2 font-mono">{run.id}</span>
        </span>
      </header>
      <div className="flex flex-col gap-3 px-4 py-3">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 sm:grid-cols-4 lg:grid-cols-9">
          <Fact label="Image ID">
            <Mono value={run.imageId} />
          </Fact>
          <Fact label="Environment version">
            <Mono value={run.versionId} />
          </Fact>
          <Fact label="Runtime">
            <span className="font-mono text-xs">{run.sandboxRuntime ?? '—'}</span>
          </Fact>
          <Fact label="Build">
            <span className="tabular-nums">{formatDuration(run.buildDurationMs)}</span>
          </Fact>
          <Fact label="Agent">
            <span className="tabular-nums">{formatDuration(run.agentDurationMs)}</span>
          </Fact>
          <Fact label="Verifier">
            <span className="tabular-nums">{formatDuration(run.verifierDurationMs)}</span>
          </Fact>
          <Fact label="Total">
            <span className="tabular-nums">{formatDuration(run.totalDurationMs)}</span>
          </Fact>
          <Fact label="Timed out">{run.timedOut ? <span className="font-medium text-amber-700">yes</span> : 'no'}</Fact>
          <Fact label="Exit agent / verifier">
            <span className="tabular-nums">
              {run.agentExitCode ?? '—'} / {run.verifierExitCode ?? '—'}
            </span>
          </Fact>
        </dl>
        {run.containment.length > 0 && <ContainmentFacts entries={run.containment} />}
        {run.error && (
          <p role="note" className="whitespace-pre-wrap rounded-md bg-red-50 px-3 py-2 font-mono text-xs text-red-800">
            {run.error}
          </p>
        )}
        {run.solutionCheck && <SolutionCheckTable report={run.solutionCheck} />}
        {run.rewardDetail && !run.solutionCheck && (
          <p className="text-xs text-zinc-600">
            reward.json <code className="font-mono">{run.rewardDetail}</code>
          </p>
        )}
        <div className="flex flex-col gap-2">
          <RunLog runId={run.id} phase="agent" />
          <RunLog runId={run.id} phase="verifier" />
        </div>
      </div>
    </article>
  );
}
