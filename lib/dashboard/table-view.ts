// The view of a list table that lives in the URL: which column it is sorted by, which way, and
// which page is shown. Pure, so the shared table component, the pages that sort and page on the
// server, and the tests share one reading of `?sort=…&dir=…&page=…`.

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

export interface TableSort {
  key: string;
  dir: SortDirection;
}

export interface TableView {
  sort: TableSort | null;
  page: number; // 1-based
}

/** A page's search params as Next gives them to server pages, or as `useSearchParams` gives them. */
export type SearchParamsLike = Record<string, string | string[] | undefined> | URLSearchParams;

export const TABLE_PAGE_SIZE = 50;

// Two tables on one page keep apart by prefixing their parameters.
export interface TableParamNames {
  sort: string;
  dir: string;
  page: string;
}

export function tableParamNames(prefix = ''): TableParamNames {
  if (!prefix) return { sort: 'sort', dir: 'dir', page: 'page' };
  return { sort: `${prefix}Sort`, dir: `${prefix}Dir`, page: `${prefix}Page` };
}

function firstValue(params: SearchParamsLike, name: string): string | undefined {
  if (params instanceof URLSearchParams) return params.get(name) ?? undefined;
  const value = params[name];
  return Array.isArray(value) ? value[0] : value;
}

export interface TableViewOptions {
  // The keys a column sorts by, each with the direction a first click on it sorts in.
  sortKeys: Readonly<Record<string, SortDirection>>;
  // The order the rows come in without a sort parameter, if they come sorted by a column.
  defaultSort?: TableSort | null;
  prefix?: string;
}

/** The view a URL asks for; an unknown sort key, a bad direction or page fall back alone. */
export function parseTableView(params: SearchParamsLike, options: TableViewOptions): TableView {
  const names = tableParamNames(options.prefix);
  const key = firstValue(params, names.sort);
  const dir = firstValue(params, names.dir);
  const known = key !== undefined && Object.hasOwn(options.sortKeys, key);
  const sort: TableSort | null = known ? { key, dir: isDirection(dir) ? dir : options.sortKeys[key]! } : (options.defaultSort ?? null);
  const pageText = firstValue(params, names.page);
  const page = pageText !== undefined && /^[1-9][0-9]{0,8}$/.test(pageText) ? Number(pageText) : 1;
  return { sort, page };
}

function isDirection(value: string | undefined): value is SortDirection {
  return value === 'asc' || value === 'desc';
}

/** The sort after activating a column's header: the same column flips, another starts at its first direction. */
export function nextSort(current: TableSort | null, key: string, firstDir: SortDirection): TableSort {
  if (current?.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' };
  return { key, dir: firstDir };
}

function sameSort(a: TableSort | null | undefined, b: TableSort | null | undefined): boolean {
  return (a ?? null) === (b ?? null) || (a?.key === b?.key && a?.dir === b?.dir);
}

/**
 * The query string ("" or "?a=b") of the URL showing `view`, keeping every other parameter
 * (filters) as it is. The default sort and page 1 are left out, so the plain URL stays plain.
 */
export function tableViewSearch(params: SearchParamsLike, view: TableView, options: Pick<TableViewOptions, 'defaultSort' | 'prefix'> = {}): string {
  const names = tableParamNames(options.prefix);
  const next = new URLSearchParams();
  const entries =
    params instanceof URLSearchParams
      ? [...params.entries()]
      : Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [v].flat().map((one) => [k, one] as const)));
  for (const [name, value] of entries) if (name !== names.sort && name !== names.dir && name !== names.page) next.append(name, value);
  if (view.sort && !sameSort(view.sort, options.defaultSort)) {
    next.set(names.sort, view.sort.key);
    next.set(names.dir, view.sort.dir);
  }
  if (view.page > 1) next.set(names.page, String(view.page));
  const search = next.toString();
  return search ? `?${search}` : '';
}

export type SortValue = string | number | boolean | Date | null | undefined;

// Numbers and dates by value, text by locale with numeric runs compared as numbers ("g2" < "g10").
function compareSortValues(a: Exclude<SortValue, null | undefined>, b: Exclude<SortValue, null | undefined>): number {
  if (typeof a === 'string' && typeof b === 'string') return a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });
  const x = a instanceof Date ? a.getTime() : Number(a);
  const y = b instanceof Date ? b.getTime() : Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The rows ordered by a column's value, stably (ties keep the order the rows came in). Missing
 * values (null, undefined) go last in either direction: an empty cell is not an extreme.
 */
export function sortRows<Row>(rows: readonly Row[], value: (row: Row) => SortValue, dir: SortDirection): Row[] {
  const sign = dir === 'asc' ? 1 : -1;
  const keyed = rows.map((row, index) => ({ row, index, key: value(row) }));
  keyed.sort((a, b) => {
    const aMissing = a.key === null || a.key === undefined;
    const bMissing = b.key === null || b.key === undefined;
    if (aMissing || bMissing) return aMissing === bMissing ? a.index - b.index : aMissing ? 1 : -1;
    return sign * compareSortValues(a.key!, b.key!) || a.index - b.index;
  });
  return keyed.map((entry) => entry.row);
}

export interface PageWindow {
  page: number; // clamped to the pages there are
  pageCount: number;
  first: number; // 1-based number of the first row shown; 0 when there are none
  last: number;
  total: number;
}

/** Which rows of `total` a page shows: "rows first–last of total". A page past the end shows the last one. */
export function pageWindow(total: number, page: number, pageSize: number): PageWindow {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const clamped = Math.min(Math.max(1, page), pageCount);
  const first = total === 0 ? 0 : (clamped - 1) * pageSize + 1;
  return { page: clamped, pageCount, first, last: Math.min(total, clamped * pageSize), total };
}

/** The rows of one page of an in-memory list. */
export function pageRows<Row>(rows: readonly Row[], window: PageWindow): Row[] {
  return window.total === 0 ? [] : rows.slice(window.first - 1, window.last);
}
