'use client';
// The backtest of one item: start one (leads), watch it run, read what it found, and send a
// violation back to review — which re-opens an approved or released generation.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import type { Route } from 'next';
import { useActionState, useEffect } from 'react';
import { DataTable, type Column } from '@/app/_components/data-table.tsx';
import { fetchJson, PENDING_REFETCH_MS } from '@/app/_components/http.ts';
import { VerdictBadge } from '@/app/_components/verdict-badge.tsx';
import type { ActionResult } from '@/app/missed-issues/action-result.ts';
import { buttonClass, primaryButtonClass } from '@/app/_components/ui.ts';
import { ResultBanner } from '@/app/missed-issues/_components/fields.tsx';
import { sendBackAction, startBacktestAction } from '../actions.ts';
import type { BacktestView } from '@/lib/rubric/index.ts';
import type { SearchParamsLike } from '@/lib/dashboard/index.ts';
import { GenerationState, inGroup, STANDING_STATES, stateLabel } from '@/lib/states/index.ts';
import { isActiveJobState } from '@/lib/queue/browser.ts';

// Every state a backtest may look at; the standing ones are ticked by default.
const STATE_CHOICES = [GenerationState.approved, GenerationState.released, GenerationState.awaitingReview, GenerationState.rejected].map((value) => ({
  value,
  label: stateLabel(value),
  checked: inGroup(value, STANDING_STATES),
}));

const HEADLINE_STYLES: Record<BacktestView['headlines'][number]['caught'], string> = {
  yes: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  no: 'border-red-300 bg-red-50 text-red-950',
  unknown: 'border-amber-300 bg-amber-50 text-amber-950',
  'not-run': 'border-zinc-200 bg-zinc-50 text-zinc-700',
};

function SendBack({ findingId, generationState, onDone }: { findingId: string; generationState: string; onDone: () => void }) {
  const [result, send, pending] = useActionState<ActionResult | null>(sendBackAction.bind(null, findingId), null);
  useEffect(() => {
    if (result?.ok) onDone();
  }, [result, onDone]);
  if (result?.ok)
    return (
      <span role="status" className="text-xs text-emerald-800">
        {result.message}
      </span>
    );
  return (
    <form action={send} className="flex flex-col items-end gap-1">
      <button type="submit" disabled={pending} className={buttonClass}>
        Send back to review
      </button>
      {generationState !== GenerationState.awaitingReview && <span className="text-xs text-amber-800">re-opens this {generationState} generation</span>}
      {result && !result.ok && (
        <span role="alert" className="text-xs text-red-700">
          {result.message}
        </span>
      )}
    </form>
  );
}

type Finding = BacktestView['findings'][number];
const isViolation = (f: Finding) => f.verdict === 'failed' || f.verdict === 'error';

// In the server's order until a header sorts them; the page's item verdicts table owns the unprefixed parameters.
function findingColumns(mayManage: boolean, refresh: () => void): Column<Finding>[] {
  const columns: Column<Finding>[] = [
    { header: 'Verdict', sort: { key: 'verdict', value: (f) => f.verdict }, cell: (f) => <VerdictBadge verdict={f.verdict} /> },
    {
      header: 'Generation',
      sort: { key: 'generation', value: (f) => (f.generation ? `${f.generation.lineageName} ${f.generation.number}` : f.generationId) },
      cell: (f) =>
        f.generation ? (
          <Link href={`/generations/${f.generation.id}` as Route} className="hover:underline">
            {f.generation.lineageName} #{f.generation.number}
          </Link>
        ) : (
          f.generationId
        ),
    },
    { header: 'State', sort: { key: 'state', value: (f) => f.generation?.state ?? null }, className: 'text-zinc-600', cell: (f) => f.generation?.state ?? '–' },
    { header: 'Version', className: 'font-mono text-xs', cell: (f) => f.versionId.slice(0, 12) },
    { header: 'Detail', className: 'max-w-md font-mono text-xs whitespace-pre-wrap text-zinc-600', cell: (f) => f.detail.slice(0, 300) },
  ];
  if (!mayManage) return columns;
  return [
    ...columns,
    {
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      cell: (f) =>
        f.sentToReview ? (
          <span className="text-xs text-zinc-600">sent back to review</span>
        ) : isViolation(f) && f.generation ? (
          <SendBack findingId={f.id} generationState={f.generation.state} onDone={refresh} />
        ) : null,
    },
  ];
}

export function BacktestPanel({ itemId, label, mayManage, params }: { itemId: string; label: string; mayManage: boolean; params: SearchParamsLike }) {
  const queryClient = useQueryClient();
  const queryKey = ['rubric-backtest', itemId];
  const { data, error } = useQuery({
    queryKey,
    queryFn: () => fetchJson<BacktestView>(`/api/rubric/${itemId}/backtest`),
    refetchInterval: (query) => (isActiveJobState(query.state.data?.job?.state ?? '') ? PENDING_REFETCH_MS : false),
  });
  const [started, start, starting] = useActionState<ActionResult | null, FormData>(async (prev, form) => {
    const result = await startBacktestAction(itemId, prev, form);
    await queryClient.invalidateQueries({ queryKey });
    return result;
  }, null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey });
  const running = isActiveJobState(data?.job?.state ?? '');
  const violations = data?.findings.filter(isViolation) ?? [];

  return (
    <section aria-labelledby="backtest-heading" className="flex flex-col gap-3 rounded-lg border border-zinc-200 bg-white p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="backtest-heading" className="text-base font-semibold">
          Backtest
        </h2>
        <p className="text-sm text-zinc-500">Runs {label} over the generations that already passed the validators, to find what it would have caught.</p>
      </div>
      {mayManage && (
        <form action={start} className="flex flex-wrap items-center gap-3">
          <fieldset className="flex flex-wrap items-center gap-3">
            <legend className="sr-only">Generation states to backtest</legend>
            {STATE_CHOICES.map((s) => (
              <label key={s.value} className="flex items-center gap-1.5 text-sm">
                <input type="checkbox" name="states" value={s.value} defaultChecked={s.checked} />
                {s.label}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={starting || running} className={primaryButtonClass}>
            {running ? 'Backtest running…' : 'Run backtest'}
          </button>
        </form>
      )}
      <ResultBanner result={started} />
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error.message}
        </p>
      )}
      {data && data.headlines.length > 0 && (
        <ul className="flex flex-col gap-1.5" aria-label="Would the item have caught the generations its missed issues were filed on?">
          {data.headlines.map((h) => (
            <li
              key={h.origin.issueId}
              data-testid="backtest-headline"
              data-caught={h.caught}
              className={`rounded-md border px-3 py-2 text-sm font-medium ${HEADLINE_STYLES[h.caught]}`}
            >
              <Link href={`/generations/${h.origin.generationId}` as Route} className="hover:underline">
                {h.text}
              </Link>
              <span className="block text-xs font-normal opacity-80">filed as “{h.origin.issueTitle}”</span>
            </li>
          ))}
        </ul>
      )}
      {data?.job && (
        <p className="text-sm text-zinc-600" role="status">
          Latest backtest job: {data.job.state}
          {data.job.finishedAt ? `, finished ${data.job.finishedAt.slice(0, 16).replace('T', ' ')}` : ''}
          {data.job.lastError ? ` — ${data.job.lastError}` : ''}
        </p>
      )}
      {data && data.findings.length === 0 && <p className="text-sm text-zinc-500">No findings yet.</p>}
      {data && data.findings.length > 0 && (
        <>
          <p className="text-sm font-medium" data-testid="backtest-summary">
            {violations.length} violation(s) in {data.findings.length} generation(s)
          </p>
          <DataTable
            label={`Backtest findings of ${label}`}
            testId="backtest-findings"
            columns={findingColumns(mayManage, refresh)}
            rows={data.findings}
            rowKey={(f) => f.id}
            rowProps={() => ({ className: 'align-top hover:bg-zinc-50' })}
            url={{ path: `/rubric/${itemId}`, params, prefix: 'findings' }}
            noun="findings"
          />
        </>
      )}
    </section>
  );
}
