// Read models behind /lineages and /lineages/[id]: a constant number of queries per page,
// however many lineages, generations and attempts there are; the aggregates are computed in SQL.
import type { Db } from '../db/index.ts';
import { idsWithNameContaining, Prisma } from '../db/index.ts';
import { readStoredDifficulty, STORED_DIFFICULTY_SELECT } from '../difficulty/index.ts';
import {
  readExhaustedAxes,
  settingsOf,
  lineagePriors,
  lineageSandboxRuntime,
  axisPolicySchema,
  describeAxisPolicy,
  lineageWork,
  NO_WORK,
  shownGenerations,
  shownLineageStatus,
} from '../evolution/index.ts';
import { GenerationState, inGroup, IN_PROGRESS_STATES, VALIDATED_STATES } from '../states/index.ts';
import type { SchedulerConfig } from '../scheduler/index.ts';
import { isSimulated, lineageGate, SIMULATED_POLICY, type GateDecision, GATING_PURPOSES, newestPolicyVersion, ProbeGroupState } from '../gate/index.ts';
import { lineageWaits } from '../scheduler/index.ts';
import { judgementText, rubricJudgements, rubricRunLabel } from '../rubric/index.ts';
import type {
  LineageListItem,
  LineageListPage,
  LineageListQuery,
  LineageTree,
  PassRatePoint,
  TreeAttempt,
  TreeProbe,
  TreeRelease,
  TreeVerdict,
} from './lineages-types.ts';
import { LINEAGE_SORT_DIRECTIONS } from './lineages-types.ts';

/** One page of lineages, filtered and sorted; pass rates only for the rows on the page. */
export async function listLineages(db: Db, query: LineageListQuery): Promise<LineageListPage> {
  const named = query.q ? await idsWithNameContaining(db, 'lineage', query.q) : undefined;
  const [lineages, synthesisers] = await Promise.all([
    db.lineage.findMany({
      where: {
        status: query.status || undefined,
        synthesiser: query.synthesiser || undefined,
        id: named ? { in: named } : undefined,
      },
      select: {
        id: true,
        name: true,
        seedVersionId: true,
        status: true,
        synthesiser: true,
        axisPolicy: true,
        effort: true,
        frontier: true,
        updatedAt: true,
      },
    }),
    db.lineage.findMany({ distinct: ['synthesiser'], select: { synthesiser: true }, orderBy: { synthesiser: 'asc' } }),
  ]);
  const stats = await activityOf(db, lineages);
  const statOf = (id: string) => stats.get(id) ?? { settled: 0, failed: 0, inProgress: 0, last: 0 };

  // Each order is written in its own direction; the other one is its reverse.
  const sign = !query.dir || query.dir === LINEAGE_SORT_DIRECTIONS[query.sort] ? 1 : -1;
  const sorted = [...lineages].sort((a, b) => {
    const byName = a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
    if (query.sort === 'name') return sign * byName;
    if (query.sort === 'generations') return sign * (statOf(b.id).settled - statOf(a.id).settled || byName);
    return sign * (statOf(b.id).last - statOf(a.id).last || byName);
  });
  const pageCount = Math.max(1, Math.ceil(sorted.length / query.pageSize));
  const page = Math.min(query.page, pageCount);
  const rows = sorted.slice((page - 1) * query.pageSize, page * query.pageSize);

  const [seeds, passRates] = await Promise.all([
    db.environmentVersion.findMany({
      where: { id: { in: [...new Set(rows.map((row) => row.seedVersionId))] } },
      select: { id: true, name: true },
    }),
    passRatesOf(
      db,
      rows.map((row) => row.id),
    ),
  ]);
  const seedNames = new Map(seeds.map((seed) => [seed.id, seed.name]));
  const work = await lineageWork(
    db,
    rows.map((row) => row.id),
  );

  const items: LineageListItem[] = rows.map((row) => ({
    id: row.id,
    name: row.name,
    seedVersionId: row.seedVersionId,
    seedName: seedNames.get(row.seedVersionId) ?? row.seedVersionId.slice(0, 12),
    status: shownLineageStatus(row.status, work.get(row.id) ?? NO_WORK, statOf(row.id).inProgress > 0),
    synthesiser: row.synthesiser,
    axisPolicy: axisPolicyLabel(row.axisPolicy),
    effort: row.effort,
    frontier: row.frontier,
    settledGenerations: statOf(row.id).settled,
    failedGenerations: statOf(row.id).failed,
    lastActivity: new Date(statOf(row.id).last).toISOString(),
    passRates: passRates.get(row.id) ?? [],
  }));
  return {
    items,
    total: sorted.length,
    page,
    pageSize: query.pageSize,
    pageCount,
    synthesisers: synthesisers.map((s) => s.synthesiser),
  };
}

interface LineageActivity {
  settled: number;
  failed: number;
  inProgress: number;
  last: number;
}

// Counts and activity for every matching lineage (sorting by them has to see all rows): one
// aggregate over the generations, in SQL, not rows shipped to Node.
async function activityOf(db: Db, lineages: { id: string; updatedAt: Date }[]): Promise<Map<string, LineageActivity>> {
  const stats = new Map<string, LineageActivity>(lineages.map((l) => [l.id, { settled: 0, failed: 0, inProgress: 0, last: l.updatedAt.getTime() }]));
  if (lineages.length === 0) return stats;
  const rows = await db.$queryRaw<
    { lineageId: string; settled: number | bigint; failed: number | bigint; inProgress: number | bigint; last: Date | string }[]
  >(Prisma.sql`
    SELECT "lineageId",
      SUM(CASE WHEN "state" IN (${Prisma.join([...VALIDATED_STATES])}) THEN 1 ELSE 0 END) AS "settled",
      SUM(CASE WHEN "state" = ${GenerationState.failed} THEN 1 ELSE 0 END) AS "failed",
      SUM(CASE WHEN "state" IN (${Prisma.join([...IN_PROGRESS_STATES])}) THEN 1 ELSE 0 END) AS "inProgress",
      MAX("updatedAt") AS "last"
    FROM "Generation" GROUP BY "lineageId"`);
  for (const row of rows) {
    const entry = stats.get(row.lineageId);
    if (!entry) continue;
    entry.settled = Number(row.settled);
    entry.failed = Number(row.failed);
    entry.inProgress = Number(row.inProgress);
    entry.last = Math.max(entry.last, new Date(row.last).getTime());
  }
  return stats;
}

// Per generation of each lineage: passed validator runs over all runs of its attempts, in one
// aggregate (generations → attempts → runs), oldest generation first.
async function passRatesOf(db: Db, lineageIds: string[]): Promise<Map<string, PassRatePoint[]>> {
  if (lineageIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ lineageId: string; number: number | bigint; state: string; runs: number | bigint; passed: number | bigint }[]>(Prisma.sql`
    SELECT g."lineageId", g."number", g."state",
      COUNT(v."id") AS "runs",
      COALESCE(SUM(CASE WHEN v."verdict" = 'passed' THEN 1 ELSE 0 END), 0) AS "passed"
    FROM "Generation" g
    LEFT JOIN "Attempt" a ON a."generationId" = g."id"
    LEFT JOIN "ValidatorRun" v ON v."attemptId" = a."id"
    WHERE g."lineageId" IN (${Prisma.join(lineageIds)})
    GROUP BY g."id", g."lineageId", g."number", g."state", g."createdAt"
    ORDER BY g."number" ASC, g."createdAt" ASC, g."id" ASC`);
  const byLineage = new Map<string, PassRatePoint[]>();
  for (const row of rows) {
    const runs = Number(row.runs);
    const points = byLineage.get(row.lineageId) ?? [];
    points.push({ number: Number(row.number), state: row.state, rate: runs ? Number(row.passed) / runs : null, runs });
    byLineage.set(row.lineageId, points);
  }
  return byLineage;
}

/**
 * One lineage with every generation, attempt, verdict, difficulty, release decision and probe
 * pass rate, or null. Pass rates are of one policy: `view.policy`, else the lineage's probe policy.
 */
export async function getLineageTree(db: Db, lineageId: string, view: { config: SchedulerConfig; policy?: string }): Promise<LineageTree | null> {
  const lineage = await db.lineage.findUnique({
    where: { id: lineageId },
    include: {
      generations: {
        orderBy: [{ number: 'asc' }, { createdAt: 'asc' }],
        include: {
          attempts: { orderBy: { number: 'asc' } },
          _count: { select: { planRounds: true } },
        },
      },
    },
  });
  if (!lineage) return null;
  const attemptIds = lineage.generations.flatMap((g) => g.attempts.map((a) => a.id));
  const versionIds = [lineage.seedVersionId, ...lineage.generations.flatMap((g) => (g.versionId ? [g.versionId] : []))];
  const gate = lineageGate(lineage, view.config);
  const policy = view.policy ?? gate.policy;
  const [versions, runs, groups, waits, policyVersion, work] = await Promise.all([
    db.environmentVersion.findMany({ where: { id: { in: versionIds } }, select: { id: true, name: true, ...STORED_DIFFICULTY_SELECT } }),
    db.validatorRun.findMany({
      where: { attemptId: { in: attemptIds } },
      // Oldest first, so the newest run of a kind is the one left in the map.
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, attemptId: true, kind: true, verdict: true, reward: true },
    }),
    db.probeGroup.findMany({
      where: { versionId: { in: versionIds }, purpose: { in: GATING_PURPOSES }, state: ProbeGroupState.complete },
      orderBy: { createdAt: 'asc' },
      select: { versionId: true, policy: true, policyVersion: true, passes: true, size: true, simulated: true },
    }),
    lineageWaits(db, lineageId, view.config),
    newestPolicyVersion(db, gate.policy),
    lineageWork(db, [lineageId]),
  ]);
  const generations = shownGenerations(lineage.seedVersionId, lineage.generations);
  const reporters = await reportersOf(
    db,
    lineage.generations.flatMap((g) => (g.releasedByGroupId ? [g.releasedByGroupId] : [])),
  );
  const waitOf = new Map(waits.generations.map((w) => [w.generation, w.reason]));
  const versionById = new Map(versions.map((v) => [v.id, v]));
  const judgements = await rubricJudgements(
    db,
    runs.filter((r) => r.kind === 'rubric').map((r) => r.id),
  );
  const verdictsByAttempt = new Map<string, Map<string, TreeVerdict>>();
  for (const { id, attemptId, ...run } of runs) {
    if (!attemptId) continue;
    const kinds = verdictsByAttempt.get(attemptId) ?? new Map<string, TreeVerdict>();
    const judgement = judgements.get(id);
    const shown = judgement ? { label: rubricRunLabel(run.verdict, judgement), judged: judgementText(judgement) } : { label: run.verdict, judged: null };
    kinds.set(run.kind, { ...run, ...shown });
    verdictsByAttempt.set(attemptId, kinds);
  }
  const verdictsOf = (attemptId: string): TreeVerdict[] => [...(verdictsByAttempt.get(attemptId)?.values() ?? [])];
  const seed = versionById.get(lineage.seedVersionId);
  // Oldest first: the newest group of the policy per version is the one left in the map.
  const probeByVersion = new Map(
    groups
      .filter((g) => g.policy === policy)
      .map((g) => [g.versionId, { policy: g.policy, policyVersion: g.policyVersion, passes: g.passes, size: g.size, simulated: isSimulated(g) }]),
  );
  const probeOf = (versionId: string | null): TreeProbe | null => (versionId ? (probeByVersion.get(versionId) ?? null) : null);

  return {
    id: lineage.id,
    name: lineage.name,
    status: shownLineageStatus(
      lineage.status,
      work.get(lineageId) ?? NO_WORK,
      lineage.generations.some((g) => inGroup(g.state, IN_PROGRESS_STATES)),
    ),
    synthesiser: lineage.synthesiser,
    axisPolicy: axisPolicyLabel(lineage.axisPolicy),
    effort: lineage.effort,
    frontier: lineage.frontier,
    approvalsRequired: lineage.approvalsRequired,
    exhaustedAxes: readExhaustedAxes(lineage),
    gate,
    sandboxRuntime: lineageSandboxRuntime(settingsOf(lineage)),
    priors: await lineagePriors(db, lineage),
    policy,
    policies: [...new Set([gate.policy, ...groups.map((g) => g.policy)])].sort(),
    policyVersion,
    frontierWait: waits.frontier,
    seed: {
      versionId: lineage.seedVersionId,
      name: seed?.name ?? 'seed',
      difficulty: seed ? readStoredDifficulty(seed) : null,
      probe: probeOf(lineage.seedVersionId),
    },
    generations: generations.map((g) => {
      const attempts: TreeAttempt[] = g.attempts.map((a) => ({
        id: a.id,
        number: a.number,
        state: a.state,
        error: a.error,
        candidateVersionId: a.candidateVersionId,
        durationMs: a.durationMs,
        verdicts: verdictsOf(a.id),
      }));
      const settledOn = g.attempts.find((a) => g.versionId && a.candidateVersionId === g.versionId) ?? g.attempts.at(-1);
      const version = g.versionId ? versionById.get(g.versionId) : undefined;
      return {
        id: g.id,
        number: g.number,
        state: g.state,
        revision: g.revision,
        axis: g.axis,
        effort: g.effort,
        parentVersionId: g.parentVersionId,
        versionId: g.versionId,
        error: g.error,
        difficulty: version ? readStoredDifficulty(version) : null,
        planRounds: g._count.planRounds,
        verdicts: settledOn ? verdictsOf(settledOn.id) : [],
        attempts,
        probe: probeOf(g.versionId),
        release: g.state === GenerationState.released ? releaseOf(g, reporters) : null,
        wait: g.state === GenerationState.approved ? (waitOf.get(g.number) ?? null) : null,
        createdAt: g.createdAt.toISOString(),
        updatedAt: g.updatedAt.toISOString(),
      };
    }),
  };
}

type Reporter = NonNullable<TreeRelease['reportedBy']>;

// The sender of each group a trainer reported: its user's email and its token's name.
async function reportersOf(db: Db, groupIds: string[]): Promise<Map<string, Reporter>> {
  if (groupIds.length === 0) return new Map();
  const groups = await db.probeGroup.findMany({ where: { id: { in: groupIds }, userId: { not: null } }, select: { id: true, userId: true, tokenId: true } });
  const [users, tokens] = await Promise.all([
    db.user.findMany({ where: { id: { in: groups.map((g) => g.userId as string) } }, select: { id: true, email: true } }),
    db.apiToken.findMany({ where: { id: { in: groups.flatMap((g) => (g.tokenId ? [g.tokenId] : [])) } }, select: { id: true, name: true } }),
  ]);
  const email = new Map(users.map((u) => [u.id, u.email]));
  const token = new Map(tokens.map((t) => [t.id, t.name]));
  return new Map(groups.map((g) => [g.id, { email: email.get(g.userId as string) ?? null, token: g.tokenId ? (token.get(g.tokenId) ?? null) : null }]));
}

// A release decision as stored with the generation (GateDecision JSON); releases made before
// decisions were stored have only their state, and say so with nulls.
function releaseOf(
  g: { releasedByGroupId: string | null; releasedByPolicy: string | null; releaseRule: string | null },
  reporters: Map<string, Reporter>,
): TreeRelease {
  let rule: Partial<GateDecision> = {};
  try {
    if (g.releaseRule) rule = JSON.parse(g.releaseRule) as Partial<GateDecision>;
  } catch {
    // An unreadable decision reads as an old release: nulls.
  }
  return {
    groupId: g.releasedByGroupId,
    policy: g.releasedByPolicy,
    policyVersion: rule.policyVersion ?? null,
    simulated: rule.simulated ?? g.releasedByPolicy === SIMULATED_POLICY,
    passes: rule.passes ?? null,
    size: rule.size ?? null,
    releaseRate: rule.releaseRate ?? null,
    minGroup: rule.minGroup ?? null,
    demoMode: rule.demoMode ?? false,
    reportedBy: g.releasedByGroupId ? (reporters.get(g.releasedByGroupId) ?? null) : null,
  };
}

// The stored policy is JSON; a row this code cannot read still gets a label: the raw text.
function axisPolicyLabel(stored: string): string {
  let json: unknown;
  try {
    json = JSON.parse(stored);
  } catch {
    return stored;
  }
  const policy = axisPolicySchema.safeParse(json);
  return policy.success ? describeAxisPolicy(policy.data) : stored;
}
