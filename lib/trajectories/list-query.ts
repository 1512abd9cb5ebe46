// The trajectory list's URL parameters: one schema for the page, the JSON route, the detail
// page's next/previous (which keeps the list's parameters in its own URL) and the tests.
import { z } from 'zod';
import { CONTROL_CHARACTERS_MESSAGE, hasNoControlCharacters } from '../text/index.ts';

export const TRAJECTORY_SORTS = ['reward', 'suspicious', 'newest', 'turns', 'duration'] as const;
export type TrajectorySort = (typeof TRAJECTORY_SORTS)[number];
// `dir`, as every sortable table of the dashboard names it (lib/dashboard/table-view.ts): highest
// first by default, where reward hacks hide; lowest first lists the false negatives.
export const TRAJECTORY_DIRECTIONS = ['desc', 'asc'] as const;
export type TrajectoryDirection = (typeof TRAJECTORY_DIRECTIONS)[number];
export const TRAJECTORY_PAGE_SIZE = 50;

// "yes" / "no" in the URL; anything else means "either".
const yesNo = z.enum(['yes', 'no']);
const count = z.coerce.number().int().min(0).max(1_000_000_000);
const idLike = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'an id is 1–64 letters, digits, "_" or "-"');

export const trajectoryListSchema = z.object({
  sort: z.enum(TRAJECTORY_SORTS).default('reward'),
  dir: z.enum(TRAJECTORY_DIRECTIONS).default('desc'),
  rewardMin: z.coerce.number().finite().optional(),
  rewardMax: z.coerce.number().finite().optional(),
  passed: yesNo.optional(),
  env: z.string().trim().min(1).max(200).refine(hasNoControlCharacters, CONTROL_CHARACTERS_MESSAGE).optional(), // environment name, substring
  version: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'version is a 64-character sha256')
    .optional(),
  lineage: idLike.optional(),
  generation: count.optional(), // generation number
  policy: z.string().trim().min(1).max(80).optional(),
  turnsMin: count.optional(),
  turnsMax: count.optional(),
  durationMin: z.coerce.number().min(0).max(1e7).optional(), // seconds
  durationMax: z.coerce.number().min(0).max(1e7).optional(), // seconds
  timedOut: yesNo.optional(),
  simulated: yesNo.optional(),
  flagged: yesNo.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});

export type TrajectoryListQuery = z.infer<typeof trajectoryListSchema>;
export type TrajectoryFilterKey = Exclude<keyof TrajectoryListQuery, 'sort' | 'dir' | 'page'>;

const KEYS = Object.keys(trajectoryListSchema.shape) as (keyof TrajectoryListQuery)[];

type RawParams = Record<string, string | string[] | undefined> | URLSearchParams;

function rawValue(raw: RawParams, key: string): string | undefined {
  const value = raw instanceof URLSearchParams ? (raw.get(key) ?? undefined) : raw[key];
  const first = Array.isArray(value) ? value[0] : value;
  // An empty form field means "no filter".
  return first === undefined || first.trim() === '' ? undefined : first;
}

/** Strict parse for route handlers: any invalid field is an error to report. */
/** Strict parse for the routes: a 400 names the field. Empty values are no filter. */
export const trajectoryListQuerySchema = z.preprocess(
  (raw) => Object.fromEntries(KEYS.map((key) => [key, rawValue(raw as RawParams, key)])),
  trajectoryListSchema,
);

/** Lenient parse for pages: an invalid field falls back to its default alone, so a stale link still opens. */
export function trajectoryListFromParams(raw: RawParams): TrajectoryListQuery {
  const fields = KEYS.map((key) => {
    const schema = trajectoryListSchema.shape[key];
    const parsed = schema.safeParse(rawValue(raw, key));
    return [key, parsed.success ? parsed.data : schema.parse(undefined)];
  });
  return trajectoryListSchema.parse(Object.fromEntries(fields));
}

/** The query string of a list URL ("" or "?a=b"), leaving out defaults. */
export function trajectoryListSearch(query: Partial<TrajectoryListQuery>, overrides: Partial<TrajectoryListQuery> = {}): string {
  const merged: Partial<TrajectoryListQuery> = { ...query, ...overrides };
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = merged[key];
    if (value === undefined) continue;
    if (key === 'sort' && value === 'reward') continue;
    if (key === 'dir' && value === 'desc') continue;
    if (key === 'page' && value === 1) continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `?${search}` : '';
}

/** Whether any filter (not sort, direction or page) is set. */
export function hasFilters(query: TrajectoryListQuery): boolean {
  return KEYS.some((key) => key !== 'sort' && key !== 'dir' && key !== 'page' && query[key] !== undefined);
}
