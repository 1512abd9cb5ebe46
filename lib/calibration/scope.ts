// What a calibration set measures: a lineage (optionally a generation range) or chosen versions,
// resolved to environment versions and then to the finished rollouts the verifier scored.
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { CalibrationInputError } from './errors.ts';
import type { SampleCandidate } from './sample.ts';

export const scopeSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('lineage'),
      lineageId: z.string().min(1),
      fromGeneration: z.number().int().min(0).optional(),
      toGeneration: z.number().int().min(0).optional(),
    })
    .refine((s) => s.fromGeneration === undefined || s.toGeneration === undefined || s.fromGeneration <= s.toGeneration, {
      message: 'fromGeneration must not be after toGeneration',
    }),
  z.object({ kind: z.literal('versions'), versionIds: z.array(z.string().min(1)).min(1) }),
]);

export type CalibrationScope = z.infer<typeof scopeSchema>;

/** The environment versions of a scope. A lineage's generation 0 is its seed. */
export async function scopeVersionIds(db: Db, scope: CalibrationScope): Promise<string[]> {
  if (scope.kind === 'versions') {
    const found = await db.environmentVersion.findMany({ where: { id: { in: scope.versionIds } }, select: { id: true } });
    const missing = scope.versionIds.filter((id) => !found.some((f) => f.id === id));
    if (missing.length > 0) throw new CalibrationInputError(`unknown environment version(s): ${missing.join(', ')}`);
    return [...new Set(scope.versionIds)];
  }
  const lineage = await db.lineage.findUnique({
    where: { id: scope.lineageId },
    select: { seedVersionId: true, generations: { select: { number: true, versionId: true } } },
  });
  if (!lineage) throw new CalibrationInputError(`no lineage has the id ${scope.lineageId}`);
  const from = scope.fromGeneration ?? 0;
  const to = scope.toGeneration ?? Number.POSITIVE_INFINITY;
  const ids = new Set<string>();
  if (from === 0) ids.add(lineage.seedVersionId);
  for (const g of lineage.generations) {
    if (g.versionId && g.number >= from && g.number <= to) ids.add(g.versionId);
  }
  return [...ids];
}

/** Finished rollouts in the scope that the verifier gave a verdict on: the sampling frame. */
export async function scopeCandidates(db: Db, versionIds: readonly string[]): Promise<SampleCandidate[]> {
  const rows = await db.rollout.findMany({
    where: { versionId: { in: [...versionIds] }, passed: { not: null }, status: { in: ['completed', 'timed-out'] } },
    select: { id: true, passed: true },
  });
  return rows.map((r) => ({ rolloutId: r.id, passed: r.passed === true }));
}

export function describeScope(scope: CalibrationScope): string {
  if (scope.kind === 'versions') return `${scope.versionIds.length} chosen version(s)`;
  const range =
    scope.fromGeneration === undefined && scope.toGeneration === undefined
      ? 'all generations'
      : `generations ${scope.fromGeneration ?? 0}–${scope.toGeneration ?? 'latest'}`;
  return `lineage ${scope.lineageId}, ${range}`;
}
