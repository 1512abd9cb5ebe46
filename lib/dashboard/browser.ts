// The browser-safe entry of lib/dashboard: only code that runs in the browser as well as on the server (no
// database, Docker or node: imports, here or below). Client components import values from here;
// everything else imports lib/dashboard/index.ts (README, Layers).
export { formatBytes, formatDuration, formatReward, formatTimestamp, shortHash } from './format.ts';
export { lineageListSearch } from './lineages-params.ts';
export {
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
} from './table-view.ts';
export { LINEAGE_SORT_DIRECTIONS, type LineageListItem, type LineageListPage, type LineageListQuery } from './lineages-types.ts';
