import type { Metadata, Route } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { requestDb } from '@/app/_server/db.ts';
import { requirePermission } from '@/app/_server/session.ts';
import { listAudit } from '@/lib/audit/record.ts';
import { formatTimestamp } from '@/lib/dashboard/format.ts';
import { AuditValue } from './audit-value.tsx';

export const metadata: Metadata = { title: 'Audit log' };

const filterSchema = z.object({
  action: z.string().trim().max(100).optional(),
  subjectType: z.string().trim().max(100).optional(),
  subjectId: z.string().trim().max(200).optional(),
  cursor: z.string().max(100).optional(),
});
type Filter = z.infer<typeof filterSchema>;

const FIELD = 'h-8 w-44 rounded-md border border-zinc-300 bg-white px-2.5 text-sm placeholder:text-zinc-400';

function first(value: string | string[] | undefined): string | undefined {
  const one = Array.isArray(value) ? value[0] : value;
  return one ? one : undefined;
}

function olderHref(filter: Filter, cursor: string): Route {
  const params = new URLSearchParams();
  for (const key of ['action', 'subjectType', 'subjectId'] as const) if (filter[key]) params.set(key, filter[key]);
  params.set('cursor', cursor);
  return `/audit?${params.toString()}`;
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
  const { entries, nextCursor } = await listAudit(await requestDb(), { ...filter, limit: 100 });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-lg font-semibold tracking-tight">Audit log</h1>
          <p className="text-sm text-zinc-500">Every decision, newest first: who, what, when, and the subject before and after.</p>
        </div>
        <form role="search" action="/audit" className="flex flex-wrap items-center gap-2">
          <input aria-label="Action" name="action" defaultValue={filter.action} placeholder="action" className={FIELD} />
          <input aria-label="Subject type" name="subjectType" defaultValue={filter.subjectType} placeholder="subject type" className={FIELD} />
          <input aria-label="Subject id" name="subjectId" defaultValue={filter.subjectId} placeholder="subject id" className={FIELD} />
          <button type="submit" className="h-8 rounded-md border border-zinc-300 bg-white px-3 text-sm font-medium text-zinc-700 hover:bg-zinc-50">
            Filter
          </button>
        </form>
      </div>
      {entries.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-8 text-center text-sm text-zinc-500">No audit entries match.</p>
      ) : (
        <table className="w-full table-fixed rounded-lg border border-zinc-200 bg-white text-sm">
          <thead className="border-b border-zinc-100 text-left text-xs text-zinc-500">
            <tr>
              <th className="w-40 px-3 py-2 font-medium">When</th>
              <th className="w-56 px-3 py-2 font-medium">Who</th>
              <th className="w-40 px-3 py-2 font-medium">Action</th>
              <th className="w-56 px-3 py-2 font-medium">Subject</th>
              <th className="px-3 py-2 font-medium">Before → after</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id} data-testid="audit-row" className="border-b border-zinc-100 align-top last:border-0">
                <td className="px-3 py-2 text-zinc-500">{formatTimestamp(entry.createdAt.toISOString())}</td>
                <td className="truncate px-3 py-2" title={entry.actorEmail}>
                  {entry.actorEmail}
                </td>
                <td className="px-3 py-2 font-mono text-xs">{entry.action}</td>
                <td className="truncate px-3 py-2 text-xs" title={entry.subjectId}>
                  {entry.subjectType} <span className="font-mono text-zinc-500">{entry.subjectId}</span>
                </td>
                <td className="px-3 py-2">
                  <div className="flex items-start gap-2">
                    <AuditValue value={entry.before} />
                    <span aria-label="became" className="text-zinc-400">
                      →
                    </span>
                    <AuditValue value={entry.after} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {nextCursor && (
        <Link href={olderHref(filter, nextCursor)} className="self-start text-sm font-medium underline underline-offset-4">
          Older entries
        </Link>
      )}
    </div>
  );
}
