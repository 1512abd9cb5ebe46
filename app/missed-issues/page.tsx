import type { Metadata } from 'next';
import Link from 'next/link';
import type { Route } from 'next';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import {
  listMissedIssues,
  MISSED_ISSUE_LIST_LIMIT,
  MISSED_ISSUE_STATES,
  missedIssueFilterSchema,
  SEVERITIES,
  VALIDATOR_KINDS,
  type MissedIssueRow,
} from '@/lib/missed-issues/index.ts';
import type { MissedIssueState, Severity } from '@/lib/missed-issues/index.ts';
import { DataTable, type Column } from '@/app/_components/data-table.tsx';
import { buttonClass, inputClass } from '@/app/_components/ui.ts';
import { Badge } from './labels.tsx';

export const metadata: Metadata = { title: 'Missed issues' };

type Search = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v || undefined;
}

function FilterSelect({ name, label, options, value }: { name: string; label: string; options: readonly string[]; value?: string }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={`filter-${name}`} className="text-xs font-medium text-zinc-600">
        {label}
      </label>
      <select id={`filter-${name}`} name={name} defaultValue={value ?? ''} className={`${inputClass} h-8 w-40 py-0`}>
        <option value="">any</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
}

// In the order the server gives (open first, newest first within a state) until a header sorts them.
const COLUMNS: Column<MissedIssueRow>[] = [
  {
    header: 'Title',
    sort: { key: 'title', value: (issue) => issue.title },
    className: 'font-medium',
    cell: (issue) => (
      <Link href={`/missed-issues/${issue.id}` as Route} className="hover:underline">
        {issue.title}
      </Link>
    ),
  },
  {
    header: 'State',
    sort: { key: 'state', value: (issue) => MISSED_ISSUE_STATES.indexOf(issue.state as MissedIssueState) },
    cell: (issue) => <Badge value={issue.state} />,
  },
  {
    header: 'Severity',
    sort: { key: 'severity', value: (issue) => SEVERITIES.indexOf(issue.severity as Severity), firstDir: 'desc' },
    cell: (issue) => <Badge value={issue.severity} kind="severity" />,
  },
  { header: 'Validator', sort: { key: 'validator', value: (issue) => issue.validatorKind }, className: 'text-zinc-600', cell: (issue) => issue.validatorKind },
  {
    header: 'Generation',
    sort: { key: 'generation', value: (issue) => `${issue.generation.lineageName} ${issue.generation.number}` },
    className: 'text-zinc-600',
    cell: (issue) => (
      <>
        {issue.generation.lineageName} #{issue.generation.number}
      </>
    ),
  },
  {
    header: 'Proposed',
    className: 'text-zinc-600',
    cell: (issue) => [issue.check ? 'check' : '', issue.question ? 'question' : ''].filter(Boolean).join(' + ') || '–',
  },
  {
    header: 'Rubric item',
    className: 'font-mono text-xs',
    cell: (issue) =>
      issue.rubricItem ? (
        <Link href={`/rubric/${issue.rubricItem.id}` as Route} className="hover:underline">
          {issue.rubricItem.key}@{issue.rubricItem.version}
        </Link>
      ) : (
        '–'
      ),
  },
  {
    header: 'Filed',
    sort: { key: 'filed', value: (issue) => issue.createdAt, firstDir: 'desc' },
    className: 'whitespace-nowrap text-zinc-500',
    cell: (issue) => (
      <>
        {issue.createdAt.toISOString().slice(0, 16).replace('T', ' ')} · {issue.reporterEmail ?? 'unknown'}
      </>
    ),
  },
];

export default async function MissedIssuesPage({ searchParams }: { searchParams: Promise<Search> }) {
  await requirePermission('dashboard.read');
  const raw = await searchParams;
  // A bad filter value is not worth an error page: it filters nothing instead.
  const parsed = missedIssueFilterSchema.safeParse({ state: first(raw.state), severity: first(raw.severity), validatorKind: first(raw.validator) });
  const filter = parsed.success ? parsed.data : {};
  const issues = await listMissedIssues(await requestDb(), filter);

  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-lg font-semibold tracking-tight">Missed issues</h1>
        <p className="text-sm text-zinc-500">
          Problems reviewers found that the validators let through. Open ones first; a lead turns one into a rubric item or dismisses it.
        </p>
      </div>
      <form action="/missed-issues" className="flex flex-wrap items-end gap-3" aria-label="Filter missed issues">
        <FilterSelect name="state" label="State" options={MISSED_ISSUE_STATES} value={filter.state} />
        <FilterSelect name="severity" label="Severity" options={SEVERITIES} value={filter.severity} />
        <FilterSelect name="validator" label="Validator" options={VALIDATOR_KINDS} value={filter.validatorKind} />
        <button type="submit" className={buttonClass}>
          Filter
        </button>
      </form>
      {issues.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 bg-white px-4 py-8 text-center text-sm text-zinc-600">
          No missed issues{parsed.success && Object.values(filter).some(Boolean) ? ' match these filters' : ' yet'}. File one from a generation’s review page.
        </p>
      ) : (
        <DataTable
          label="Missed issues"
          columns={COLUMNS}
          rows={issues}
          rowKey={(issue) => issue.id}
          rowProps={() => ({ 'data-testid': 'missed-issue-row' })}
          url={{ path: '/missed-issues', params: raw }}
          noun="missed issues"
        />
      )}
      {issues.length === MISSED_ISSUE_LIST_LIMIT && (
        <p className="text-xs text-zinc-500">Showing the newest {MISSED_ISSUE_LIST_LIMIT}; filter to find older ones.</p>
      )}
    </div>
  );
}
