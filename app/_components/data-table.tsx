// The shared data table of every list: a bordered card, a muted header row, one row per item,
// headers that sort and a pager under it. Pages give the columns (header + cell, and a sort key
// where the column sorts) and, when rows are selectable or link somewhere, per-row props.
//
// The view (sort column, direction, page) lives in the URL, so a link reproduces it: headers and
// the pager are links to the same page with other parameters. Rows in memory (a list the server
// bounds) are sorted and paged here; rows the server already sorted and paged say so with
// `serverPage`, and their columns' sort keys are ones the server orders by.
//
// No hooks: server pages render it directly, client components pass `useSearchParams()`.
import Link from 'next/link';
import type { Route } from 'next';
import type { HTMLAttributes, ReactNode, Ref } from 'react';
import {
  nextSort,
  pageRows,
  pageWindow,
  parseTableView,
  sortRows,
  TABLE_PAGE_SIZE,
  tableViewSearch,
  type PageWindow,
  type SearchParamsLike,
  type SortDirection,
  type SortValue,
  type TableSort,
  type TableView,
} from '@/lib/dashboard/browser.ts';

export interface ColumnSort<Row> {
  key: string; // the value of ?sort= for this column
  // Orders rows in memory; absent when the server orders by `key`.
  value?: (row: Row) => SortValue;
  firstDir?: SortDirection; // what a first click sorts by; 'asc' unless said
  // The server orders by this key one way only: the header selects it and does not flip.
  only?: SortDirection;
}

export interface Column<Row> {
  header: ReactNode;
  cell: (row: Row, index: number) => ReactNode;
  className?: string; // for the header and the cells, e.g. 'text-right tabular-nums'
  sort?: ColumnSort<Row>;
}

type RowProps = HTMLAttributes<HTMLTableRowElement> & { ref?: Ref<HTMLTableRowElement>; 'data-testid'?: string; 'aria-selected'?: boolean } & {
  [data: `data-${string}`]: string | undefined;
};

// Where the table's view lives: the page's path and its current search params (filters kept).
export interface TableUrl {
  path: string;
  params: SearchParamsLike;
  prefix?: string; // for a second table on the same page
}

// One page of rows the server sorted and paged.
export interface ServerPage {
  page: number;
  pageSize: number;
  total: number;
}

export function DataTable<Row>(props: {
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowProps?: (row: Row, index: number) => RowProps;
  empty?: ReactNode;
  url?: TableUrl; // without it the table neither sorts nor pages
  defaultSort?: TableSort; // the order rows come in without ?sort=
  pageSize?: number; // rows in memory per page
  serverPage?: ServerPage;
  noun?: string; // "1–50 of 120 <noun>"
  testId?: string;
}) {
  if (props.rows.length === 0) {
    return (
      <p
        className="rounded-lg border border-zinc-200 bg-white px-4 py-6 text-center text-sm text-zinc-500"
        data-testid={props.testId ? `${props.testId}-empty` : undefined}
      >
        {props.empty ?? 'Nothing to show.'}
      </p>
    );
  }
  const { url, serverPage } = props;
  const sortKeys = Object.fromEntries(props.columns.flatMap((c) => (c.sort ? [[c.sort.key, c.sort.only ?? c.sort.firstDir ?? 'asc'] as const] : [])));
  const view: TableView = url
    ? parseTableView(url.params, { sortKeys, defaultSort: props.defaultSort, prefix: url.prefix })
    : { sort: props.defaultSort ?? null, page: 1 };
  const href = (next: TableView) => url && (`${url.path}${tableViewSearch(url.params, next, { defaultSort: props.defaultSort, prefix: url.prefix })}` as Route);

  let rows = props.rows;
  let shown: PageWindow;
  if (serverPage) {
    shown = pageWindow(serverPage.total, serverPage.page, serverPage.pageSize);
  } else {
    const sortedBy = props.columns.find((c) => c.sort && c.sort.key === view.sort?.key)?.sort?.value;
    if (sortedBy && view.sort) rows = sortRows(rows, sortedBy, view.sort.dir);
    shown = url ? pageWindow(rows.length, view.page, props.pageSize ?? TABLE_PAGE_SIZE) : pageWindow(rows.length, 1, Math.max(1, rows.length));
    rows = pageRows(rows, shown);
  }

  return (
    <div className="flex flex-col gap-2">
      <div className="relative overflow-x-auto rounded-lg border border-zinc-200 bg-white">
        <table className="w-full text-left text-sm" aria-label={props.label} data-testid={props.testId}>
          <thead className="bg-zinc-50 text-xs text-zinc-500">
            <tr>
              {props.columns.map((column, i) => {
                const active = column.sort !== undefined && view.sort?.key === column.sort.key ? view.sort : null;
                return (
                  <th
                    key={i}
                    scope="col"
                    aria-sort={active ? (active.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                    className={`px-3 py-2 font-medium first:pl-4 last:pr-4 ${column.className ?? ''}`}
                  >
                    {column.sort && url ? (
                      <SortLink
                        href={href({
                          sort: column.sort.only
                            ? { key: column.sort.key, dir: column.sort.only }
                            : nextSort(view.sort, column.sort.key, column.sort.firstDir ?? 'asc'),
                          page: 1,
                        })!}
                        active={active?.dir ?? null}
                      >
                        {column.header}
                      </SortLink>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const extra = props.rowProps?.(row, index) ?? {};
              return (
                <tr key={props.rowKey(row)} {...extra} className={`border-t border-zinc-100 ${extra.className ?? 'hover:bg-zinc-50'}`}>
                  {props.columns.map((column, i) => (
                    <td key={i} className={`px-3 py-2 first:pl-4 last:pr-4 ${column.className ?? ''}`}>
                      {column.cell(row, index)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {url && (serverPage || shown.pageCount > 1) && (
        <Pager label={props.label} shown={shown} noun={props.noun ?? 'rows'} href={(page) => href({ sort: view.sort, page })!} />
      )}
    </div>
  );
}

// The header as a link to the other order; Enter follows it like a click. The arrow says the order shown.
function SortLink({ href, active, children }: { href: Route; active: SortDirection | null; children: ReactNode }) {
  return (
    <Link href={href} scroll={false} className={`inline-flex items-center gap-1 hover:text-zinc-900 ${active ? 'text-zinc-900' : ''}`}>
      {children}
      <span aria-hidden="true" className={active ? '' : 'text-zinc-300'}>
        {active === 'asc' ? '▲' : active === 'desc' ? '▼' : '↕'}
      </span>
    </Link>
  );
}

const PAGER_LINK = 'rounded-md border border-zinc-300 bg-white px-2.5 py-1 font-medium text-zinc-700 hover:bg-zinc-50';
const PAGER_DISABLED = 'rounded-md border border-zinc-200 px-2.5 py-1 text-zinc-400';

function Pager({ label, shown, noun, href }: { label: string; shown: PageWindow; noun: string; href: (page: number) => Route }) {
  return (
    <nav aria-label={`Pages of ${label}`} className="flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="tabular-nums text-zinc-600" data-testid="list-range">
        {shown.first}–{shown.last} of {shown.total} {noun}
      </p>
      {shown.pageCount > 1 && (
        <div className="flex items-center gap-2">
          {shown.page > 1 ? (
            <Link href={href(shown.page - 1)} rel="prev" className={PAGER_LINK}>
              Previous
            </Link>
          ) : (
            <span className={PAGER_DISABLED}>Previous</span>
          )}
          <span className="tabular-nums text-zinc-600">
            Page {shown.page} of {shown.pageCount}
          </span>
          {shown.page < shown.pageCount ? (
            <Link href={href(shown.page + 1)} rel="next" className={PAGER_LINK}>
              Next
            </Link>
          ) : (
            <span className={PAGER_DISABLED}>Next</span>
          )}
        </div>
      )}
    </nav>
  );
}
