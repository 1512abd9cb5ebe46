// Trainer batches: environments sampled from the lineages' frontiers. A version that is not
// served (servable.ts: flagged, held out, rejected, superseded) is never served, and neither is one
// whose latest group of the lineage's probe policy, at that policy's newest version, failed every
// rollout or passed every rollout: both give a group-relative trainer (GRPO) zero advantage. In its
// place the lineage serves its highest released generation that is still trainable. Each served
// environment says which policy and version its pass count is from and which policy released it
// (a demo lineage's generations say "simulated"); the batch says what was left out and why.
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { createRng } from '../synth/index.ts';
import { schedulerConfigFrom } from './config.ts';
import { GATING_PURPOSES, newestPolicyVersion, ProbeGroupState } from '../gate/index.ts';
import { settings } from '../config/index.ts';
import { SERVABLE_STATES } from '../states/index.ts';
import { refusalOf, servabilityFacts, type ServabilityFacts, type Unservable } from './servable.ts';

export interface BatchEnvironment {
  versionId: string;
  name: string;
  lineageId: string;
  generation: number; // 0 = the seed
  policy: string; // the lineage's probe policy: passes and size are of its latest group
  policy_version: string | null; // the newest version of that policy (a trainer's checkpoint), null before any group
  passes: number | null; // of the latest gating group of that policy at that version, when there is one
  size: number | null;
  released_by: string | null; // the policy whose group released this generation; null for a seed
}

export type LeftOutReason = 'saturated' | 'all_fail' | Unservable['kind'];

// A frontier (or a fallback below it) the batch did not serve.
export interface LeftOutEnvironment {
  versionId: string;
  lineageId: string;
  generation: number;
  reason: LeftOutReason;
  policy: string;
  policy_version: string | null;
  passes: number | null;
  size: number | null;
}

export interface TrainablePool {
  environments: BatchEnvironment[];
  left_out: LeftOutEnvironment[];
}

export interface TrainingBatch {
  environments: BatchEnvironment[];
  left_out: { total: number; by_reason: Partial<Record<LeftOutReason, number>>; environments: LeftOutEnvironment[] };
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

const groupKey = (versionId: string, policy: string, policyVersion: string) => `${versionId}\u0000${policy}\u0000${policyVersion}`;

// The newest complete gating group per version, policy and policy version.
async function latestGroups(db: Db, versionIds: string[]): Promise<Map<string, { passes: number; size: number }>> {
  // No orderBy: unordered, Prisma splits a long IN list into chunks within SQLite's parameter
  // limit (ordered, it cannot, and ~2,000 frontier versions fail); the newest is picked here.
  const groups = await db.probeGroup.findMany({
    where: { versionId: { in: versionIds }, purpose: { in: GATING_PURPOSES }, state: ProbeGroupState.complete },
    select: { versionId: true, policy: true, policyVersion: true, passes: true, size: true, createdAt: true },
  });
  const newest = new Map<string, { passes: number; size: number; createdAt: Date }>();
  for (const g of groups) {
    const key = groupKey(g.versionId, g.policy, g.policyVersion);
    const seen = newest.get(key);
    if (!seen || seen.createdAt <= g.createdAt) newest.set(key, g);
  }
  return new Map([...newest].map(([key, g]) => [key, { passes: g.passes, size: g.size }]));
}

async function newestVersions(db: Db, policies: Iterable<string>): Promise<Map<string, string | null>> {
  const names = [...new Set(policies)];
  return new Map(await Promise.all(names.map(async (p) => [p, await newestPolicyVersion(db, p)] as const)));
}

function leftOutReason(facts: ServabilityFacts | undefined, group: { passes: number; size: number } | undefined): LeftOutReason | null {
  if (!facts) return 'unknown_version';
  const refusal = refusalOf(facts);
  if (refusal) return refusal.kind;
  if (group && group.passes === 0) return 'all_fail';
  if (group && group.passes === group.size) return 'saturated';
  return null;
}

export async function trainableEnvironments(db: Db, defaultPolicy = schedulerConfigFrom(settings().scheduler).probePolicy): Promise<TrainablePool> {
  const byLineage = await candidatesByLineage(db, defaultPolicy);
  const versionIds = [...new Set([...byLineage.values()].flat().map((c) => c.versionId))];
  const versions = await db.environmentVersion.findMany({ where: { id: { in: versionIds } }, select: { id: true, name: true } });
  const names = new Map(versions.map((v) => [v.id, v.name]));
  const facts = await servabilityFacts(db, versionIds);
  const groups = await latestGroups(db, versionIds);
  const newest = await newestVersions(
    db,
    [...byLineage.values()].flat().map((c) => c.policy),
  );
  const pool: TrainablePool = { environments: [], left_out: [] };
  for (const list of byLineage.values()) {
    for (const c of list) {
      const policyVersion = newest.get(c.policy) ?? null;
      const g = policyVersion === null ? undefined : groups.get(groupKey(c.versionId, c.policy, policyVersion));
      const counts = { policy_version: policyVersion, passes: g?.passes ?? null, size: g?.size ?? null };
      const reason = leftOutReason(facts.get(c.versionId), g);
      if (reason) {
        pool.left_out.push({ versionId: c.versionId, lineageId: c.lineageId, generation: c.generation, reason, policy: c.policy, ...counts });
        continue;
      }
      pool.environments.push({ ...c, name: names.get(c.versionId) ?? '', ...counts });
      break;
    }
  }
  pool.environments.sort((a, b) => a.lineageId.localeCompare(b.lineageId));
  return pool;
}

// Trainers ask for batches far more often than frontiers move, so the pool is read at most once a
// second per process and shared by the requests of that second; a trainer's report in this process
// drops it at once. A batch may thus lag a frontier moved by another process by up to a second.
const POOL_MAX_AGE_MS = 1000;
const pools = new WeakMap<Db, { readAt: number; pool: Promise<TrainablePool> }>();

export function recentTrainablePool(db: Db, now = Date.now()): Promise<TrainablePool> {
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

export async function sampleTrainingBatch(db: Db, req: BatchRequest): Promise<TrainingBatch> {
  const pool = await recentTrainablePool(db);
  const by_reason: TrainingBatch['left_out']['by_reason'] = {};
  for (const l of pool.left_out) by_reason[l.reason] = (by_reason[l.reason] ?? 0) + 1;
  const left_out = { total: pool.left_out.length, by_reason, environments: pool.left_out };
  if (pool.environments.length === 0) return { environments: [], left_out };
  const rng = createRng(req.seed ?? Math.floor(Math.random() * 2 ** 32));
  const environments: BatchEnvironment[] = [];
  // Each lineage at most once per pass over the pool, so a batch spreads over lineages.
  while (environments.length < req.size) environments.push(...rng.shuffle(pool.environments).slice(0, req.size - environments.length));
  return { environments, left_out };
}
