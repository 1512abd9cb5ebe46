import Link from 'next/link';
import type { Route } from 'next';
import { lineageListSearch } from '@/lib/dashboard/index.ts';
import type { LineageListPage, LineageListQuery } from '@/lib/dashboard/index.ts';

const LINK = 'rounded-md border border-zinc-300 bg-white px-2.5 py-1 font-medium text-zinc-700 hover:bg-zinc-50';
const DISABLED = 'rounded-md border border-zinc-200 px-2.5 py-1 text-zinc-400';

export function Pagination({ page, query }: { page: LineageListPage; query: LineageListQuery }) {
  const first = page.total === 0 ? 0 : (page.page - 1) * page.pageSize + 1;
  const last = Math.min(page.total, page.page * page.pageSize);
  const href = (target: number) => `/lineages${lineageListSearch(query, { page: target })}` as Route;
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-3 text-sm">
      <p className="text-zinc-600 tabular-nums">
        {first}–{last} of {page.total} lineages
      </p>
      <div className="flex items-center gap-2">
        {page.page > 1 ? (
          <Link href={href(page.page - 1)} rel="prev" className={LINK}>
            Previous
          </Link>
        ) : (
          <span className={DISABLED}>Previous</span>
        )}
        <span className="tabular-nums text-zinc-600">
          Page {page.page} of {page.pageCount}
        </span>
        {page.page < page.pageCount ? (
          <Link href={href(page.page + 1)} rel="next" className={LINK}>
            Next
          </Link>
        ) : (
          <span className={DISABLED}>Next</span>
        )}
      </div>
    </nav>
  );
}
