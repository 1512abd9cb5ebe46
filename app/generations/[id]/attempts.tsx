import Link from 'next/link';
import type { Route } from 'next';
import { formatDuration, formatTimestamp, mergeRubricVerdicts, orderRuns, summaryText, verdictSummary, type RubricItemRow } from '@/lib/dashboard/index.ts';
import { countJudgement, judgementText, rubricRunLabel } from '@/lib/rubric/index.ts';
import { AttemptState } from '@/lib/states/index.ts';
import type { AttemptRunView, AttemptView } from '@/lib/dashboard/index.ts';
import { VerdictBadge } from '../../_components/verdict-badge.tsx';
import { ValidatorRunCard } from '../../environments/[id]/validator-run-card.tsx';

const METHOD_LABELS: Record<string, string> = { executable: 'check', builtin: 'built-in check', llm: 'LLM' };

function RubricRun({ run, generationId }: { run: AttemptRunView; generationId: string }) {
  const items = mergeRubricVerdicts(run.rubricVerdicts);
  const judged = items.filter((item) => item.verdict !== 'unjudged');
  const unjudged = items.filter((item) => item.verdict === 'unjudged');
  const judgement = countJudgement(run.rubricVerdicts);
  return (
    <article aria-label={`Rubric run ${run.id}`} data-testid="run-rubric" className="rounded-lg border border-zinc-200 bg-white">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-zinc-100 px-4 py-2.5">
        <h3 className="text-sm font-semibold">Rubric</h3>
        <VerdictBadge verdict={rubricRunLabel(run.verdict, judgement)} />
        <span className="text-xs text-zinc-700" data-testid="rubric-judgement">
          {judgementText(judgement)}
        </span>
        <span className="text-xs text-zinc-600">
          judged by rubric <span className="font-mono">{run.rubricVersion ?? '—'}</span>
        </span>
        {run.sandboxRuntime && (
          <span className="text-xs text-zinc-600">
            checks ran under <span className="font-mono">{run.sandboxRuntime}</span>
          </span>
        )}
        <span className="ml-auto text-xs text-zinc-500 tabular-nums">
          {formatDuration(run.totalDurationMs)} · <time dateTime={run.createdAt}>{formatTimestamp(run.createdAt)}</time>
        </span>
      </header>
      <RubricTable items={judged} generationId={generationId} />
      {unjudged.length > 0 && (
        <details data-testid="rubric-unjudged" className="border-t border-zinc-100">
          <summary className="cursor-pointer px-4 py-1.5 text-xs text-zinc-600 hover:bg-zinc-50">
            {unjudged.length} items wait for an LLM judge (no LLM judged their questions)
          </summary>
          <RubricTable items={unjudged} generationId={generationId} />
        </details>
      )}
      {run.error && <p className="px-4 py-2 font-mono text-xs text-red-800">{run.error}</p>}
    </article>
  );
}

function RubricTable({ items, generationId }: { items: RubricItemRow[]; generationId: string }) {
  if (items.length === 0) return null;
  return (
    <table className="w-full text-left text-xs">
      <thead className="text-zinc-500">
        <tr>
          <th scope="col" className="px-4 py-1 font-medium">
            Item
          </th>
          <th scope="col" className="py-1 pr-3 font-medium">
            Verdict by method
          </th>
          <th scope="col" className="py-1 pr-4 font-medium">
            Detail
          </th>
          <th scope="col" className="py-1 pr-4 font-medium">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={`${item.itemKey}@${item.itemVersion}`} data-testid="rubric-item" className="border-t border-zinc-100 align-top">
            <td className="px-4 py-1">
              <span className="font-medium text-zinc-800">{item.itemTitle}</span>
              <span className="ml-1 font-mono text-zinc-500">
                {item.itemKey}@{item.itemVersion}
              </span>
            </td>
            <td className="py-1 pr-3">
              <span className="flex flex-wrap gap-1">
                {item.methods.map((m) => (
                  <span key={m.id} className="inline-flex items-center gap-1">
                    <span className="text-zinc-500">{METHOD_LABELS[m.method] ?? m.method}</span>
                    <VerdictBadge verdict={m.verdict} />
                  </span>
                ))}
              </span>
            </td>
            <td className="max-w-md whitespace-pre-wrap break-words py-1 pr-4 text-zinc-700">
              {item.methods
                .map((m) => m.detail)
                .filter(Boolean)
                .join('\n') || '—'}
            </td>
            <td className="py-1 pr-4 text-right">
              <Link
                href={`/generations/${generationId}/missed-issue/new?rubricItem=${encodeURIComponent(item.itemKey)}` as Route}
                className="whitespace-nowrap text-blue-700 hover:underline"
                aria-label={`File a missed issue about rubric item ${item.itemKey}`}
              >
                File missed issue
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

// Every attempt of Loop 2 with all its validator runs, newest last; the focused one is open.
export function Attempts({ generationId, attempts, focused }: { generationId: string; attempts: AttemptView[]; focused: number | null }) {
  if (attempts.length === 0) return <p className="text-sm text-zinc-500">No attempts yet.</p>;
  return (
    <div className="flex flex-col gap-3">
      {attempts.map((attempt) => (
        <details
          key={attempt.id}
          open={attempt.number === focused}
          id={`attempt-${attempt.number}`}
          data-testid={`attempt-${attempt.number}`}
          className="group rounded-md border border-zinc-200"
        >
          <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm hover:bg-zinc-50">
            <span aria-hidden className="inline-block transition-transform group-open:rotate-90">
              ▸
            </span>
            <span className="font-semibold">Attempt {attempt.number}</span>
            <VerdictBadge verdict={attempt.state === AttemptState.valid ? 'passed' : attempt.state === AttemptState.invalid ? 'failed' : attempt.state} />
            <span className="text-xs text-zinc-700" data-testid="attempt-summary">
              {summaryText(verdictSummary(attempt.runs))}
            </span>
            <span className="text-xs text-zinc-500">{formatDuration(attempt.durationMs)}</span>
            {attempt.number === focused ? (
              <span className="ml-auto text-xs font-medium text-blue-800">residual shown below</span>
            ) : (
              <Link href={`/generations/${generationId}?attempt=${attempt.number}`} className="ml-auto text-xs text-blue-700 hover:underline">
                show this attempt&apos;s residual
              </Link>
            )}
          </summary>
          <div className="flex flex-col gap-3 border-t border-zinc-200 p-3">
            {attempt.feedback && (
              <div>
                <h4 className="text-xs font-semibold text-zinc-500">Feedback given to the modifier</h4>
                <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-50 px-2 py-1.5 text-xs">{attempt.feedback}</pre>
              </div>
            )}
            {attempt.error && (
              <p role="note" className="whitespace-pre-wrap rounded-md bg-red-50 px-3 py-2 font-mono text-xs text-red-800">
                {attempt.error}
              </p>
            )}
            {orderRuns(attempt.runs).map((run) =>
              run.kind === 'rubric' ? <RubricRun key={run.id} run={run} generationId={generationId} /> : <ValidatorRunCard key={run.id} run={run} />,
            )}
          </div>
        </details>
      ))}
    </div>
  );
}
