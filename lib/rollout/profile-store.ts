// Reading stored latency profiles (kept apart from profile.ts so pages need not load the sandbox).
import type { Db } from '../db/index.ts';
import { minSamplesFor, type CurvePoint } from './profile-math.ts';

export interface StoredProfile {
  id: string;
  policy: string;
  samples: number;
  concurrency: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  needMoreSamples: string[];
  concurrencyCeiling: number;
  curve: CurvePoint[];
  phaseP50Ms: Record<string, number> | null; // null for profiles stored before steps were recorded
  createdAt: string;
}

// The newest profile of a version, for its page; percentiles left out say why.
export async function latestProfile(db: Db, versionId: string): Promise<StoredProfile | null> {
  const row = await db.environmentProfile.findFirst({ where: { versionId }, orderBy: { createdAt: 'desc' } });
  if (!row) return null;
  const needMoreSamples = (
    [
      [50, row.p50Ms],
      [95, row.p95Ms],
      [99, row.p99Ms],
    ] as const
  )
    .filter(([, value]) => value === null)
    .map(([p]) => `p${p} needs ${minSamplesFor(p)} rollouts (have ${row.samples})`);
  return {
    id: row.id,
    policy: row.policy,
    samples: row.samples,
    concurrency: row.concurrency,
    p50Ms: row.p50Ms,
    p95Ms: row.p95Ms,
    p99Ms: row.p99Ms,
    needMoreSamples,
    concurrencyCeiling: row.concurrencyCeiling,
    curve: JSON.parse(row.curve) as CurvePoint[],
    phaseP50Ms: row.phaseP50Ms ? (JSON.parse(row.phaseP50Ms) as Record<string, number>) : null,
    createdAt: row.createdAt.toISOString(),
  };
}
