import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import type { Route } from 'next';
import { VerdictBadge } from '@/app/_components/verdict-badge.tsx';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { Badge } from '@/app/missed-issues/labels.tsx';
import { can } from '@/lib/auth/index.ts';
import { itemVerdicts, type ItemVerdictRow } from '@/lib/rubric/index.ts';
import { DataTable, type Column } from '@/app/_components/data-table.tsx';
import { ActiveToggle } from '../_components/active-toggle.tsx';
import { BacktestPanel } from '../_components/backtest-panel.tsx';

export const metadata: Metadata = { title: 'Rubric item' };

// Newest first as the server gives them (the newest 100) until a header sorts them.
const VERDICT_COLUMNS: Column<ItemVerdictRow>[] = [
  {
    header: 'Generation',
    sort: { key: 'generation', value: (v) => (v.generation ? `${v.generation.lineageName} ${v.generation.number}` : null) },
    cell: (v) =>
      v.generation ? (
        <Link href={`/generations/${v.generation.id}` as Route} className="hover:underline">
          {v.generation.lineageName} #{v.generation.number}
        </Link>
      ) : (
        '–'
      ),
  },
  {
    header: 'Version',
    className: 'font-mono text-xs',
    cell: (v) => (
      <Link href={`/environments/${v.versionId}` as Route} className="hover:underline">
        {v.versionId.slice(0, 12)}
      </Link>
    ),
  },
  { header: 'Verdict', sort: { key: 'verdict', value: (v) => v.verdict }, cell: (v) => <VerdictBadge verdict={v.verdict} /> },
  { header: 'Method', sort: { key: 'method', value: (v) => v.method }, className: 'text-zinc-600', cell: (v) => v.method },
  {
    header: 'Rubric version',
    sort: { key: 'rubric-version', value: (v) => v.rubricVersion },
    className: 'font-mono text-xs',
    cell: (v) => v.rubricVersion ?? '–',
  },
  { header: 'Detail', className: 'max-w-md font-mono text-xs whitespace-pre-wrap text-zinc-600', cell: (v) => v.detail.trim().slice(0, 400) || '–' },
];

export default async function RubricItemPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePermission('dashboard.read');
  const mayManage = can(user.role, 'rubric.manage');
  const { id } = await params;
  const query = await searchParams;
  const db = await requestDb();
  const item = await db.rubricItem.findUnique({ where: { id } });
  if (!item) notFound();
  const [versions, verdicts, issue, lineage] = await Promise.all([
    db.rubricItem.findMany({ where: { key: item.key }, orderBy: { version: 'desc' } }),
    itemVerdicts(db, item.id),
    db.missedIssue.findFirst({ where: { rubricItemId: item.id }, select: { id: true, title: true } }),
    item.lineageId ? db.lineage.findUnique({ where: { id: item.lineageId }, select: { name: true } }) : null,
  ]);

  return (
    <div className="flex flex-col gap-6">
      <div>
        <p className="text-sm text-zinc-500">
          <Link href="/rubric" className="underline">
            Rubric
          </Link>
        </p>
        <h1 className="text-lg font-semibold tracking-tight">
          {item.title}{' '}
          <span className="font-mono text-base text-zinc-500">
            {item.key}@{item.version}
          </span>
        </h1>
        <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-zinc-600">
          <span data-testid="item-state">
            <Badge value={item.active ? 'active' : 'inactive'} />
          </span>
          <span>{item.source}</span>·<span>{item.scope === 'lineage' ? `lineage ${lineage?.name ?? item.lineageId}` : 'global'}</span>·
          <span>judges the {item.appliesTo}</span>
          {issue && (
            <>
              ·
              <Link href={`/missed-issues/${issue.id}` as Route} className="underline">
                from missed issue “{issue.title}”
              </Link>
            </>
          )}
        </div>
      </div>

      <section className="grid gap-4 lg:grid-cols-2" aria-label="What the item checks">
        <div className="rounded-lg border border-zinc-200 bg-white p-4">
          <h2 className="text-sm font-semibold">Description</h2>
          <p className="mt-1 text-sm whitespace-pre-wrap text-zinc-700">{item.description}</p>
          <h2 className="mt-3 text-sm font-semibold">Question for the LLM judge</h2>
          <p className="mt-1 text-sm text-zinc-700">{item.question ?? '–'}</p>
        </div>
        <div className="rounded-lg border border-zinc-200 bg-white p-4">
          <h2 className="text-sm font-semibold">Executable check</h2>
          {item.check ? (
            <pre className="mt-1 overflow-x-auto rounded bg-zinc-50 p-2 font-mono text-xs">{item.check}</pre>
          ) : (
            <p className="mt-1 text-sm text-zinc-700">–</p>
          )}
          <h2 className="mt-3 text-sm font-semibold">Built-in check</h2>
          <p className="mt-1 text-sm text-zinc-700">
            {item.builtinCheck ? (
              <>
                <span className="font-mono">{item.builtinCheck}</span>: Envolve&apos;s own code judges the files, no sandbox and no LLM
              </>
            ) : (
              '–'
            )}
          </p>
        </div>
      </section>

      <section aria-labelledby="versions-heading" className="flex flex-col gap-2">
        <h2 id="versions-heading" className="text-base font-semibold">
          Versions
        </h2>
        <ul className="divide-y divide-zinc-100 rounded-lg border border-zinc-200 bg-white">
          {versions.map((v) => (
            <li key={v.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
              <span className="flex items-center gap-2">
                <Link href={`/rubric/${v.id}` as Route} className="font-mono hover:underline" aria-current={v.id === item.id ? 'page' : undefined}>
                  {v.key}@{v.version}
                </Link>
                <Badge value={v.active ? 'active' : 'inactive'} />
                <span className="text-zinc-500">{v.createdAt.toISOString().slice(0, 16).replace('T', ' ')}</span>
              </span>
              {mayManage && <ActiveToggle itemId={v.id} active={v.active} label={`${v.key}@${v.version}`} scope={v.scope} />}
            </li>
          ))}
        </ul>
      </section>

      <BacktestPanel itemId={item.id} label={`${item.key}@${item.version}`} mayManage={mayManage} params={query} />

      <section aria-labelledby="verdicts-heading" className="flex flex-col gap-2">
        <h2 id="verdicts-heading" className="text-base font-semibold">
          What this version judged
        </h2>
        <p className="text-sm text-zinc-500">
          Verdicts of {item.key}@{item.version} in rubric validator runs (a plan item&apos;s in plan reviews, on the parent version the plan was made from),
          with the rubric version (item set) of each.
        </p>
        {verdicts.length === 0 ? (
          <p className="rounded-lg border border-dashed border-zinc-300 bg-white px-4 py-6 text-center text-sm text-zinc-600">
            {item.active ? 'Active, but no generation has been validated since.' : 'Not active, so no validator run has used it yet.'}
          </p>
        ) : (
          <DataTable
            label={`Verdicts of ${item.key}@${item.version}`}
            testId="item-verdicts"
            columns={VERDICT_COLUMNS}
            rows={verdicts}
            rowKey={(v) => v.id}
            rowProps={() => ({ className: 'align-top hover:bg-zinc-50' })}
            url={{ path: `/rubric/${item.id}`, params: query }}
            noun="verdicts"
          />
        )}
      </section>
    </div>
  );
}
