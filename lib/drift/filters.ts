// The drift page's URL parameters (also the JSON and CSV routes'): which lineages, which
// x-axis. Every field is optional; an invalid one is a clear 400 from the routes, and the
// page falls back to the default for that field alone.
import { z } from 'zod';
import type { DriftInput, LineageInfo } from './types.ts';

const id = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,80}$/, 'an id is 1–80 letters, digits, "_" or "-"');
const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is YYYY-MM-DD')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), 'not a calendar date');

export const driftFilterSchema = z.object({
  lineage: id.optional(), // the per-lineage view
  seed: z
    .string()
    .trim()
    .regex(/^[0-9a-f]{64}$/, 'seed is a version id (64 hex characters)')
    .optional(),
  axisPolicy: z.string().trim().max(120).optional(),
  synthesiser: z.string().trim().max(40).optional(),
  from: day.optional(), // lineages started on or after this day (UTC)
  to: day.optional(), // lineages started on or before this day (UTC)
  x: z.enum(['generation', 'time']).default('generation'),
  policy: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.:-]{1,80}$/, 'a policy is a name such as oracle or simulated')
    .optional(), // pass rates of this policy; absent: each lineage's probe policy
});
export type DriftFilter = z.infer<typeof driftFilterSchema>;

const FILTER_KEYS = ['lineage', 'seed', 'axisPolicy', 'synthesiser', 'from', 'to', 'x', 'policy'] as const;

/** Empty strings (an unset select of a GET form) mean "no filter". */
function present(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = raw[key];
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first.trim() !== '') out[key] = first;
  }
  return out;
}

/** For routes: the filter, or the zod error to answer 400 with. */
export function parseDriftFilter(raw: Record<string, string | string[] | undefined>) {
  return driftFilterSchema.safeParse(present(raw));
}

/** For the page: each invalid field falls back to its default alone. */
export function driftFilterFromSearchParams(raw: Record<string, string | string[] | undefined>): DriftFilter {
  const given = present(raw);
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(given)) {
    const field = driftFilterSchema.shape[key as keyof typeof driftFilterSchema.shape];
    if (field.safeParse(value).success) kept[key] = value;
  }
  return driftFilterSchema.parse(kept);
}

/** The query string of a filter (without "?"), leaving out defaults; `x` may be overridden. */
export function driftSearch(filter: DriftFilter, overrides: Partial<DriftFilter> = {}): string {
  const merged = { ...filter, ...overrides };
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = merged[key];
    if (value === undefined || (key === 'x' && value === 'generation')) continue;
    params.set(key, value);
  }
  return params.toString();
}

const dayStart = (value: string) => Date.parse(`${value}T00:00:00Z`);

export function lineageMatches(lineage: LineageInfo, filter: DriftFilter): boolean {
  if (filter.lineage && lineage.id !== filter.lineage) return false;
  if (filter.seed && lineage.seedVersionId !== filter.seed) return false;
  if (filter.axisPolicy && lineage.axisPolicy !== filter.axisPolicy) return false;
  if (filter.synthesiser && lineage.synthesiser !== filter.synthesiser) return false;
  const started = lineage.createdAt.getTime();
  if (filter.from && started < dayStart(filter.from)) return false;
  if (filter.to && started >= dayStart(filter.to) + 86_400_000) return false;
  return true;
}

export function applyDriftFilter(input: DriftInput, filter: DriftFilter): DriftInput {
  const lineages = input.lineages.filter((l) => lineageMatches(l, filter));
  const kept = new Set(lineages.map((l) => l.id));
  return { lineages, points: input.points.filter((p) => kept.has(p.lineageId)) };
}

export interface DriftFacets {
  seeds: { id: string; name: string; lineages: number }[];
  axisPolicies: string[];
  synthesisers: string[];
}

/** The values the filter selects offer, from every lineage (not only the filtered ones). */
export function driftFacets(input: DriftInput): DriftFacets {
  const seeds = new Map<string, { id: string; name: string; lineages: number }>();
  for (const l of input.lineages) {
    const seed = seeds.get(l.seedVersionId) ?? { id: l.seedVersionId, name: l.seedName, lineages: 0 };
    seed.lineages += 1;
    seeds.set(l.seedVersionId, seed);
  }
  const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b));
  return {
    seeds: [...seeds.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
    axisPolicies: sorted(input.lineages.map((l) => l.axisPolicy)),
    synthesisers: sorted(input.lineages.map((l) => l.synthesiser)),
  };
}
