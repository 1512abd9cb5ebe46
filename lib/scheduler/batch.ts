// Trainer batches: environments sampled from the lineages' frontiers. A version that is not
// served (servable.ts: flagged, held out, rejected, superseded), or whose latest group of the lineage's probe policy failed every
// rollout is never served; in its place the lineage serves its highest released generation that
// is still trainable. Each served environment says which policy its pass count is from and which
// policy released it (a demo lineage's generations say "simulated").
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { createRng } from '../synth/procedural/rng.ts';
import { schedulerConfigFrom } from './config.ts';
import { GATING_PURPOSES } from '../rollout/groups.ts';
import { settings } from '../config/settings.ts';
import { SERVABLE_STATES } from '../evolution/states.ts';
import { refusalOf, servabilityFacts } from './servable.ts';

export interface BatchEnvironment {
  versionId: string;
  name: string;
  lineageId: string;
  generation: number; // 0 = the seed
  policy: string; // the lineage's probe policy: passes and size are of its latest group
  passes: number | null; // of the latest gating group of that policy, when there is one
  size: number | null;
  released_by: string | null; // the policy whose group released this generation; null for a seed
}

export const batchRequestSchema = z.object({
  size: z.coerce.number().int().min(1).max(1024).default(8),
  seed: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(), // the same seed and state give the same batch
});
export type BatchRequest = z.output<typeof batchRequestSchema>;

interface Candidate {
  lineageId: string;
  generation: number;
  versionId: string;
  policy: string;
  released_by: string | null;
}

async function candidatesByLineage(db: Db, defaultPolicy: string): Promise<Map<string, Candidate[]>> {
  const lineages = await db.lineage.findMany({ where: { heldOutSet: null }, select: { id: true, seedVersionId: true, probePolicy: true } });
  const released = await db.generation.findMany({
    where: { state: { in: [...SERVABLE_STATES] }, versionId: { not: null }, lineage: { heldOutSet: null } },
    select: { lineageId: true, number: true, versionId: true, releasedByPolicy: true },
  });
  const policyOf = new Map(lineages.map((l) => [l.id, l.probePolicy ?? defaultPolicy]));
  const byLineage = new Map<string, Candidate[]>(
    lineages.map((l) => [l.id, [{ lineageId: l.id, generation: 0, versionId: l.seedVersionId, policy: policyOf.get(l.id)!, released_by: null }]]),
  );
  for (const g of released) {
    const policy = policyOf.get(g.lineageId)!;
    byLineage
      .get(g.lineageId)
      ?.push({ lineageId: g.lineageId, generation: g.number, versionId: g.versionId as string, policy, released_by: g.releasedByPolicy });
  }
  for (const list of byLineage.values()) list.sort((a, b) => b.generation - a.generation);
  return byLineage;
}

const groupKey = (versionId: string, policy: string) => `${versionId}\u0000${policy}`;

// The newest complete gating group per version and policy.
async function latestGroups(db: Db, versionIds: string[]): Promise<Map<string, { passes: number; size: number }>> {
  // No orderBy: unordered, Prisma splits a long IN list into chunks within SQLite's parameter
  // limit (ordered, it cannot, and ~2,000 frontier versions fail); the newest is picked here.
  const groups = await db.probeGroup.findMany({
    where: { versionId: { in: versionIds }, purpose: { in: GATING_PURPOSES }, state: 'complete' },
    select: { versionId: true, policy: true, passes: true, size: true, createdAt: true },
  });
  const newest = new Map<string, { passes: number; size: number; createdAt: Date }>();
  for (const g of groups) {
    const key = groupKey(g.versionId, g.policy);
    const seen = newest.get(key);
    if (!seen || seen.createdAt <= g.createdAt) newest.set(key, g);
  }
  return new Map([...newest].map(([key, g]) => [key, { passes: g.passes, size: g.size }]));
}

export async function trainableEnvironments(db: Db, defaultPolicy = schedulerConfigFrom(settings().scheduler).probePolicy): Promise<BatchEnvironment[]> {
  const byLineage = await candidatesByLineage(db, defaultPolicy);
  const versionIds = [...new Set([...byLineage.values()].flat().map((c) => c.versionId))];
  const versions = await db.environmentVersion.findMany({ where: { id: { in: versionIds } }, select: { id: true, name: true } });
  const names = new Map(versions.map((v) => [v.id, v.name]));
  const facts = await servabilityFacts(db, versionIds);
  const groups = await latestGroups(db, versionIds);
  const served: BatchEnvironment[] = [];
  for (const list of byLineage.values()) {
    const pick = list.find((c) => {
      const f = facts.get(c.versionId);
      const g = groups.get(groupKey(c.versionId, c.policy));
      return f && refusalOf(f) === null && !(g && g.passes === 0);
    });
    if (!pick) continue;
    const g = groups.get(groupKey(pick.versionId, pick.policy));
    served.push({ ...pick, name: names.get(pick.versionId) ?? '', passes: g?.passes ?? null, size: g?.size ?? null });
  }
  return served.sort((a, b) => a.lineageId.localeCompare(b.lineageId));
}

// Trainers ask for batches far more often than frontiers move, so the pool is read at most once a
// second per process and shared by the requests of that second; a trainer's report in this process
// drops it at once. A batch may thus lag a frontier moved by another process by up to a second.
const POOL_MAX_AGE_MS = 1000;
const pools = new WeakMap<Db, { readAt: number; pool: Promise<BatchEnvironment[]> }>();

export function recentTrainablePool(db: Db, now = Date.now()): Promise<BatchEnvironment[]> {
  const cached = pools.get(db);
  if (cached && now - cached.readAt < POOL_MAX_AGE_MS) return cached.pool;
  const pool = trainableEnvironments(db);
  pools.set(db, { readAt: now, pool });
  pool.catch(() => pools.delete(db));
  return pool;
}

export function forgetTrainablePool(db: Db): void {
  pools.delete(db);
}

export async function sampleTrainingBatch(db: Db, req: BatchRequest): Promise<BatchEnvironment[]> {
  const pool = await recentTrainablePool(db);
  if (pool.length === 0) return [];
  const rng = createRng(req.seed ?? Math.floor(Math.random() * 2 ** 32));
  const batch: BatchEnvironment[] = [];
  // Each lineage at most once per pass over the pool, so a batch spreads over lineages.
  while (batch.length < req.size) batch.push(...rng.shuffle(pool).slice(0, req.size - batch.length));
  return batch;
}
