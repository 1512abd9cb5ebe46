import type { Metadata, Route } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { auditFacets, listAudit, type AuditEntry, auditSentence, subjectNames } from '@/lib/audit/index.ts';
import { formatTimestamp } from '@/lib/dashboard/index.ts';
import { buttonClass, inputClass } from '@/app/_components/ui.ts';
import { DataTable, type Column } from '@/app/_components/data-table.tsx';
import { AuditValue } from './audit-value.tsx';

type SubjectNames = Awaited<ReturnType<typeof subjectNames>>;

export const metadata: Metadata = { title: 'Audit log' };

const filterSchema = z.object({
  action: z.string().trim().max(100).optional(),
  subjectType: z.string().trim().max(100).optional(),
  subjectId: z.string().trim().max(200).optional(),
  cursor: z.string().max(100).optional(),
});
type Filter = z.infer<typeof filterSchema>;

const FIELD = `${inputClass} h-8 w-44`;

function first(value: string | string[] | undefined): string | undefined {
  const one = Array.isArray(value) ? value[0] : value;
  return one ? one : undefined;
}

// A filter over the values the log holds; one asked for in the URL that it does not hold stays
// selectable, so the form shows what the page is filtered by.
function FacetSelect({ label, name, value, options, anyLabel }: { label: string; name: string; value?: string; options: string[]; anyLabel: string }) {
  const values = value && !options.includes(value) ? [value, ...options] : options;
  return (
    <select aria-label={label} name={name} defaultValue={value ?? ''} className={FIELD}>
      <option value="">{anyLabel}</option>
      {values.map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </select>
  );
}

function olderHref(filter: Filter, cursor: string): Route {
  const params = new URLSearchParams();
  for (const key of ['action', 'subjectType', 'subjectId'] as const) if (filter[key]) params.set(key, filter[key]);
  params.set('cursor', cursor);
  return `/audit?${params.toString()}`;
}

// Newest first, a cursor page at a time ("Older entries"): the order is the log's, not a header's.
function auditColumns(names: SubjectNames): Column<AuditEntry>[] {
  return [
    {
      header: 'When',
      className: 'w-36 whitespace-nowrap text-xs tabular-nums text-zinc-500',
      cell: (entry) => <time dateTime={entry.createdAt.toISOString()}>{formatTimestamp(entry.createdAt.toISOString())}</time>,
    },
    {
      header: 'What',
      cell: (entry) => (
        <>
          <p>
            {auditSentence(entry, names).map((part, i) =>
              part.href ? (
                <Link key={i} href={part.href as Route} className="font-medium text-blue-700 hover:underline">
                  {part.text}
                </Link>
              ) : (
                <span key={i}>{part.text}</span>
              ),
            )}
          </p>
          {(entry.before !== null || entry.after !== null) && (
            <details className="mt-1 text-xs">
              <summary className="cursor-pointer text-zinc-500">before → after</summary>
              <div className="mt-1 flex items-start gap-2">
                <AuditValue value={entry.before} />
                <span aria-label="became" className="text-zinc-400">
                  →
                </span>
                <AuditValue value={entry.after} />
              </div>
            </details>
          )}
        </>
      ),
    },
    { header: 'Action', className: 'font-mono text-xs text-zinc-400', cell: (entry) => entry.action },
  ];
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission('audit.read');
  const raw = await searchParams;
  const parsed = filterSchema.safeParse({
    action: first(raw.action),
    subjectType: first(raw.subjectType),
    subjectId: first(raw.subjectId),
    cursor: first(raw.cursor),
  });
  // A malformed filter shows everything rather than an error page.
  const filter: Filter = parsed.success ? parsed.data : {};
  const db = await requestDb();
  const [{ entries, nextCursor }, facets] = await Promise.all([listAudit(db, { ...filter, limit: 100 }), auditFacets(db)]);
  const names = await subjectNames(db, entries);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-lg font-semibold tracking-tight">Audit log</h1>
          <p className="text-sm text-zinc-500">Every decision, newest first: who did what to which subject, when; the stored before and after under each.</p>
        </div>
        <form role="search" action="/audit" className="flex flex-wrap items-center gap-2">
          <FacetSelect label="Action" name="action" value={filter.action} options={facets.actions} anyLabel="any action" />
          <FacetSelect label="Subject type" name="subjectType" value={filter.subjectType} options={facets.subjectTypes} anyLabel="any subject type" />
          <input aria-label="Subject id" name="subjectId" defaultValue={filter.subjectId} placeholder="subject id" className={FIELD} />
          <button type="submit" className={buttonClass}>
            Filter
          </button>
        </form>
      </div>
      {entries.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-8 text-center text-sm text-zinc-500">No audit entries match.</p>
      ) : (
        <DataTable
          label="Audit log"
          columns={auditColumns(names)}
          rows={entries}
          rowKey={(entry) => entry.id}
          rowProps={() => ({ 'data-testid': 'audit-row', className: 'align-top hover:bg-zinc-50' })}
        />
      )}
      {nextCursor && (
        <Link href={olderHref(filter, nextCursor)} className="self-start text-sm font-medium underline underline-offset-4">
          Older entries
        </Link>
      )}
    </div>
  );
}
