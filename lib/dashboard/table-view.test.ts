import { describe, expect, it } from 'vitest';
import { nextSort, pageRows, pageWindow, parseTableView, sortRows, tableViewSearch } from './table-view.ts';

const SORT_KEYS = { name: 'asc', created: 'desc' } as const;

describe('parseTableView', () => {
  it('reads the sort, direction and page from the URL', () => {
    expect(parseTableView({ sort: 'name', dir: 'desc', page: '3' }, { sortKeys: SORT_KEYS })).toEqual({ sort: { key: 'name', dir: 'desc' }, page: 3 });
    expect(parseTableView(new URLSearchParams('sort=created&page=2'), { sortKeys: SORT_KEYS })).toEqual({ sort: { key: 'created', dir: 'desc' }, page: 2 });
  });

  it('falls back field by field: unknown key to the default sort, bad direction to the key’s first, bad page to 1', () => {
    const defaultSort = { key: 'created', dir: 'desc' } as const;
    expect(parseTableView({ sort: 'password', page: '0' }, { sortKeys: SORT_KEYS, defaultSort })).toEqual({ sort: defaultSort, page: 1 });
    expect(parseTableView({ sort: 'name', dir: 'sideways', page: '-4' }, { sortKeys: SORT_KEYS })).toEqual({ sort: { key: 'name', dir: 'asc' }, page: 1 });
    expect(parseTableView({ sort: 'toString' }, { sortKeys: SORT_KEYS }).sort).toBeNull();
    expect(parseTableView({ page: '1e3' }, { sortKeys: SORT_KEYS }).page).toBe(1);
    expect(parseTableView({ sort: ['name', 'created'], page: ['2', '5'] }, { sortKeys: SORT_KEYS })).toEqual({ sort: { key: 'name', dir: 'asc' }, page: 2 });
  });

  it('reads only its own prefixed parameters', () => {
    const params = { sort: 'name', usersSort: 'created', usersDir: 'asc', usersPage: '4' };
    expect(parseTableView(params, { sortKeys: SORT_KEYS, prefix: 'users' })).toEqual({ sort: { key: 'created', dir: 'asc' }, page: 4 });
  });
});

describe('nextSort', () => {
  it('flips the active column and starts another at its first direction', () => {
    expect(nextSort({ key: 'name', dir: 'asc' }, 'name', 'asc')).toEqual({ key: 'name', dir: 'desc' });
    expect(nextSort({ key: 'name', dir: 'desc' }, 'name', 'asc')).toEqual({ key: 'name', dir: 'asc' });
    expect(nextSort({ key: 'name', dir: 'desc' }, 'created', 'desc')).toEqual({ key: 'created', dir: 'desc' });
    expect(nextSort(null, 'created', 'asc')).toEqual({ key: 'created', dir: 'asc' });
  });
});

describe('tableViewSearch', () => {
  it('keeps the filters, replaces the view and leaves defaults out', () => {
    const params = { state: 'open', sort: 'name', dir: 'asc', page: '3' };
    expect(tableViewSearch(params, { sort: { key: 'created', dir: 'asc' }, page: 1 })).toBe('?state=open&sort=created&dir=asc');
    expect(tableViewSearch(params, { sort: null, page: 2 })).toBe('?state=open&page=2');
    const defaultSort = { key: 'created', dir: 'desc' } as const;
    expect(tableViewSearch(params, { sort: defaultSort, page: 1 }, { defaultSort })).toBe('?state=open');
    expect(tableViewSearch({}, { sort: null, page: 1 })).toBe('');
  });

  it('round-trips through parseTableView and keeps repeated filter values', () => {
    const view = { sort: { key: 'name', dir: 'desc' as const }, page: 7 };
    const search = tableViewSearch(new URLSearchParams('tag=a&tag=b'), view);
    expect(new URLSearchParams(search).getAll('tag')).toEqual(['a', 'b']);
    expect(parseTableView(new URLSearchParams(search), { sortKeys: SORT_KEYS })).toEqual(view);
    expect(tableViewSearch({ tag: ['a', 'b'], empty: undefined }, { sort: null, page: 1 })).toBe('?tag=a&tag=b');
  });

  it('touches only its own prefixed parameters', () => {
    expect(tableViewSearch({ sort: 'name', usersPage: '2' }, { sort: { key: 'created', dir: 'asc' }, page: 1 }, { prefix: 'users' })).toBe(
      '?sort=name&usersSort=created&usersDir=asc',
    );
  });
});

describe('sortRows', () => {
  const rows = [
    { name: 'g10', n: 3, at: new Date('2026-01-02') },
    { name: 'G2', n: null, at: new Date('2026-01-03') },
    { name: 'g1', n: 3, at: null },
    { name: 'a', n: 1, at: new Date('2026-01-01') },
  ];
  const names = (sorted: typeof rows) => sorted.map((row) => row.name);

  it('sorts text case-insensitively with numbers compared as numbers, both ways', () => {
    expect(names(sortRows(rows, (row) => row.name, 'asc'))).toEqual(['a', 'g1', 'G2', 'g10']);
    expect(names(sortRows(rows, (row) => row.name, 'desc'))).toEqual(['g10', 'G2', 'g1', 'a']);
  });

  it('keeps ties in their incoming order and missing values last in either direction', () => {
    expect(names(sortRows(rows, (row) => row.n, 'asc'))).toEqual(['a', 'g10', 'g1', 'G2']);
    expect(names(sortRows(rows, (row) => row.n, 'desc'))).toEqual(['g10', 'g1', 'a', 'G2']);
    expect(names(sortRows(rows, (row) => row.at, 'desc'))).toEqual(['G2', 'g10', 'a', 'g1']);
  });

  it('leaves its input alone', () => {
    const before = names(rows);
    sortRows(rows, (row) => row.name, 'asc');
    expect(names(rows)).toEqual(before);
  });
});

describe('pageWindow and pageRows', () => {
  const rows = Array.from({ length: 120 }, (_, i) => i + 1);

  it('numbers the rows a page shows', () => {
    expect(pageWindow(120, 1, 50)).toEqual({ page: 1, pageCount: 3, first: 1, last: 50, total: 120 });
    const third = pageWindow(120, 3, 50);
    expect(third).toEqual({ page: 3, pageCount: 3, first: 101, last: 120, total: 120 });
    expect(pageRows(rows, third)).toEqual(rows.slice(100));
  });

  it('shows the last page for a page past the end, and nothing for no rows', () => {
    expect(pageWindow(120, 9, 50).page).toBe(3);
    expect(pageWindow(0, 4, 50)).toEqual({ page: 1, pageCount: 1, first: 0, last: 0, total: 0 });
    expect(pageRows([], pageWindow(0, 1, 50))).toEqual([]);
  });
});
