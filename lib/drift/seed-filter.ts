// The seed filter over stored probes: which imported environments are hard enough to evolve.
// `runSeedFilter` probes the candidates that have no probe under the policy yet (through the
// function it is given, so this module needs no sandbox), decides, and stores the run.
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { ProbeGroupState } from '../rollout/groups.ts';
import { funnelOf, seedFunnel, type Funnel, type FunnelCandidate, type FunnelDecision, type SeedFilterThresholds } from './funnel.ts';

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
    select: { id: true, versionId: true, passes: true, size: true },
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
    return { versionId: v.id, name: v.name, probe: g ? { passes: g.passes, size: g.size, meanTurns: turnsOf.get(g.id) ?? null } : null };
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
