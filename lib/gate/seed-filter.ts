// The seed filter over stored probes: which imported environments are hard enough to evolve.
// `runSeedFilter` probes the candidates that have no probe under the policy yet (through the
// function it is given, so this module needs no sandbox), decides, and stores the run.
import { z } from 'zod';
import type { Db } from '../db/index.ts';
import { latestGatingGroup, newestPolicyVersion, ProbeGroupState } from './groups.ts';
import { isRunnablePolicy } from './gate-policy.ts';
import {
  decideCandidate,
  DEFAULT_SEED_FILTER,
  funnelOf,
  seedFunnel,
  type Funnel,
  type FunnelCandidate,
  type FunnelDecision,
  type SeedFilterThresholds,
} from './funnel.ts';
import { decideSeedFunnel, type SeedFunnelEvidence, type SeedFunnelVerdict } from './seed-funnel-gate.ts';

export interface CandidateQuery {
  policy: string; // probes under this policy only
  versionIds?: string[]; // default: every imported version
}

/** The candidates with their latest complete probe under the policy (null when never probed). */
export async function loadFunnelCandidates(db: Db, query: CandidateQuery): Promise<FunnelCandidate[]> {
  const versions = await db.environmentVersion.findMany({
    where: query.versionIds ? { id: { in: query.versionIds } } : { source: 'import' },
    select: { id: true, name: true },
  });
  if (query.versionIds) {
    const unknown = query.versionIds.filter((id) => !versions.some((v) => v.id === id));
    if (unknown.length > 0) throw new Error(`unknown environment version(s): ${unknown.join(', ')}`);
  }
  const ids = versions.map((v) => v.id);
  const groups = await db.probeGroup.findMany({
    where: { versionId: { in: ids }, purpose: 'probe', state: ProbeGroupState.complete, policy: query.policy },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, versionId: true, passes: true, size: true, policyVersion: true },
  });
  const latest = new Map<string, (typeof groups)[number]>();
  for (const g of groups) if (!latest.has(g.versionId)) latest.set(g.versionId, g);
  const sums = await db.rollout.groupBy({
    by: ['groupId'],
    where: { groupId: { in: [...latest.values()].map((g) => g.id) } },
    _count: { _all: true },
    _sum: { turns: true },
  });
  const turnsOf = new Map(sums.map((s) => [s.groupId, s._count._all > 0 ? (s._sum.turns ?? 0) / s._count._all : null]));
  return versions.map((v) => {
    const g = latest.get(v.id);
    const probe = g ? { passes: g.passes, size: g.size, meanTurns: turnsOf.get(g.id) ?? null, policyVersion: g.policyVersion } : null;
    return { versionId: v.id, name: v.name, probe };
  });
}

export interface SeedFilterRunResult {
  id: string;
  policy: string;
  createdAt: Date;
  probedNow: string[]; // candidates this run probed first
  funnel: Funnel;
}

export async function runSeedFilter(
  db: Db,
  options: CandidateQuery & { thresholds: SeedFilterThresholds; probe: (versionId: string) => Promise<void> },
): Promise<SeedFilterRunResult> {
  const before = await loadFunnelCandidates(db, options);
  const probedNow = before.filter((c) => c.probe === null).map((c) => c.versionId);
  for (const versionId of probedNow) await options.probe(versionId);
  const candidates = probedNow.length ? await loadFunnelCandidates(db, { ...options, versionIds: before.map((c) => c.versionId) }) : before;
  const funnel = seedFunnel(candidates, options.thresholds, options.policy);
  const { maxPasses, probeSize, minTurns } = options.thresholds;
  const row = await db.seedFilterRun.create({
    data: {
      policy: options.policy,
      maxPasses,
      probeSize,
      minTurns,
      candidates: funnel.decisions.length,
      kept: funnel.decisions.filter((d) => d.kept).length,
      result: JSON.stringify(funnel.decisions),
    },
  });
  return { id: row.id, policy: row.policy, createdAt: row.createdAt, probedNow, funnel };
}

const storedDecisions = z.array(
  z.object({
    versionId: z.string(),
    name: z.string(),
    passes: z.number().nullable(),
    size: z.number().nullable(),
    meanTurns: z.number().nullable(),
    kept: z.boolean(),
    removedBy: z.array(z.enum(['unprobed', 'pass-rate', 'turns'])),
  }),
) satisfies z.ZodType<FunnelDecision[]>;

/** The newest stored run with its funnel, or null when the filter never ran. */
export async function latestSeedFilterRun(db: Db): Promise<Omit<SeedFilterRunResult, 'probedNow'> | null> {
  const row = await db.seedFilterRun.findFirst({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  if (!row) return null;
  const thresholds = { maxPasses: row.maxPasses, probeSize: row.probeSize, minTurns: row.minTurns };
  return { id: row.id, policy: row.policy, createdAt: row.createdAt, funnel: funnelOf(storedDecisions.parse(JSON.parse(row.result)), thresholds, row.policy) };
}

/** The thresholds the funnel decides by: the newest stored run's (`envolve seeds filter` sets them), the paper's before any run. */
export async function seedFilterThresholdsInForce(db: Db): Promise<SeedFilterThresholds> {
  const row = await db.seedFilterRun.findFirst({
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { maxPasses: true, probeSize: true, minTurns: true },
  });
  return row ?? DEFAULT_SEED_FILTER;
}

/**
 * The funnel's verdict on a seed under the policy that gates (or would gate) its lineage: a policy a
 * trainer reports under is decided by its newest checkpoint's group on the seed, a policy Envolve
 * runs by its latest probe of the seed.
 */
export async function seedFunnelVerdict(db: Db, seedVersionId: string, policy: string): Promise<SeedFunnelVerdict> {
  const [seed] = await loadFunnelCandidates(db, { policy, versionIds: [seedVersionId] });
  if (!seed) throw new Error(`environment version ${seedVersionId} not found`);
  const thresholds = await seedFilterThresholdsInForce(db);
  return decideSeedFunnel({ seed, policy, thresholds, evidence: await seedEvidence(db, seed, policy, thresholds) });
}

async function seedEvidence(db: Db, seed: FunnelCandidate, policy: string, thresholds: SeedFilterThresholds): Promise<SeedFunnelEvidence> {
  if (!isRunnablePolicy(policy)) {
    const newestCheckpoint = await newestPolicyVersion(db, policy);
    const group = newestCheckpoint === null ? null : await latestGatingGroup(db, seed.versionId, policy, newestCheckpoint, 1);
    return {
      source: 'trainer',
      newestCheckpoint,
      // A trainer reports rewards only: its groups hold no rollouts to count turns in.
      group: group && { passes: group.passes, size: group.size, meanTurns: null, policyVersion: group.policyVersion },
    };
  }
  const imported = await loadFunnelCandidates(db, { policy });
  const candidates = imported.some((c) => c.versionId === seed.versionId) ? imported : [...imported, seed];
  return {
    source: 'probe',
    group: seed.probe,
    policyDecisions: candidates.map((c) => decideCandidate(c, thresholds)),
  };
}
