// Validation of the lineage pages' and routes' URL parameters.
import { z } from 'zod';
import { LINEAGE_STATUSES } from '../states/index.ts';
import { LINEAGE_SORTS, type LineageListQuery } from './lineages-types.ts';
import { SORT_DIRECTIONS } from './table-view.ts';
import { CONTROL_CHARACTERS_MESSAGE, hasNoControlCharacters } from '../text/index.ts';

export const LINEAGE_PAGE_SIZE = 25;

// Lineage ids are cuids.
export const lineageIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a lineage id is 1–64 letters, digits, "_" or "-"');

export const lineageListSchema = z.object({
  status: z.enum(LINEAGE_STATUSES).or(z.literal('')).optional(),
  synthesiser: z.string().trim().max(40, 'synthesiser is at most 40 characters').optional(),
  q: z.string().trim().max(200, 'q is at most 200 characters').refine(hasNoControlCharacters, CONTROL_CHARACTERS_MESSAGE).optional(),
  sort: z.enum(LINEAGE_SORTS).default('activity'),
  dir: z.enum(SORT_DIRECTIONS).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(LINEAGE_PAGE_SIZE),
});

/** The query string of a list URL, leaving out what equals the default. */
export function lineageListSearch(query: LineageListQuery, overrides: Partial<LineageListQuery> = {}): string {
  const merged = { ...query, ...overrides };
  const params = new URLSearchParams();
  if (merged.status) params.set('status', merged.status);
  if (merged.synthesiser) params.set('synthesiser', merged.synthesiser);
  if (merged.q) params.set('q', merged.q);
  if (merged.sort !== 'activity') params.set('sort', merged.sort);
  if (merged.dir) params.set('dir', merged.dir);
  if (merged.page !== 1) params.set('page', String(merged.page));
  if (merged.pageSize !== LINEAGE_PAGE_SIZE) params.set('pageSize', String(merged.pageSize));
  const search = params.toString();
  return search ? `?${search}` : '';
}

/** The list query from a page's search params; each invalid field falls back to its default alone. */
export function lineageListFromSearchParams(raw: Record<string, string | string[] | undefined>): LineageListQuery {
  const fields = Object.entries(lineageListSchema.shape).map(([key, schema]) => {
    const value = raw[key];
    const parsed = schema.safeParse(Array.isArray(value) ? value[0] : value);
    return [key, parsed.success ? parsed.data : schema.parse(undefined)];
  });
  const query = lineageListSchema.parse(Object.fromEntries(fields));
  return { ...query, status: query.status || undefined, synthesiser: query.synthesiser || undefined, q: query.q || undefined };
}

// A policy name to view pass rates under; absent: the lineage's probe policy.
export const policyViewSchema = z.string().trim().min(1).max(200).optional();
export const treeQuerySchema = z.object({ policy: policyViewSchema });
export const lineageParamsSchema = z.object({ id: lineageIdSchema });
