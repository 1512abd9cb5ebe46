// The trajectory list: one page of ids in SQL order (list-sql.ts), then only the list columns
// of those rows. Never reads steps, logs or outputs.
import type { Db } from '../db/index.ts';
import { Prisma } from '../db/index.ts';
import { TRAJECTORY_PAGE_SIZE, type TrajectoryListQuery } from './list-query.ts';
import { countSql, mediansCte, rankedSql, sortKeySql } from './list-sql.ts';
import { suspicionReasons, suspicionScore } from './suspicion.ts';
import type { TrajectoryFacets, TrajectoryListItem, TrajectoryListPage, TrajectoryNeighbours } from './types.ts';

export async function countTrajectories(db: Db, query: TrajectoryListQuery): Promise<number> {
  const [row] = await db.$queryRaw<{ count: number | bigint }[]>(countSql(query));
  return Number(row?.count ?? 0);
}

export async function listTrajectories(db: Db, query: TrajectoryListQuery, pageSize = TRAJECTORY_PAGE_SIZE): Promise<TrajectoryListPage> {
  const total = await countTrajectories(db, query);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(query.page, pageCount);
  const ranked = rankedSql(query);
  const ids = total
    ? await db.$queryRaw<{ id: string }[]>(
        Prisma.sql`${ranked.with} SELECT "id" FROM ranked ORDER BY ${ranked.order} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
      )
    : [];
  return {
    items: await listItems(
      db,
      ids.map((row) => row.id),
    ),
    total,
    page,
    pageSize,
    pageCount,
  };
}

const LIST_SELECT = {
  id: true,
  versionId: true,
  lineageId: true,
  generationId: true,
  policy: true,
  policyVersion: true,
  model: true,
  simulated: true,
  status: true,
  reward: true,
  passed: true,
  timedOut: true,
  turns: true,
  durationMs: true,
  touchedProtected: true,
  flaggedAt: true,
  createdAt: true,
} as const;

/** The list rows for these ids, in this order. */
async function listItems(db: Db, ids: string[]): Promise<TrajectoryListItem[]> {
  if (ids.length === 0) return [];
  // Whether changedFiles is empty, without reading the list of files itself.
  const [rows, noArtifact] = await Promise.all([
    db.rollout.findMany({ where: { id: { in: ids } }, select: LIST_SELECT }),
    db.rollout.findMany({ where: { id: { in: ids }, changedFiles: '[]' }, select: { id: true } }),
  ]);
  const versionIds = [...new Set(rows.map((r) => r.versionId))];
  const generationIds = [...new Set(rows.flatMap((r) => (r.generationId ? [r.generationId] : [])))];
  const lineageIds = [...new Set(rows.flatMap((r) => (r.lineageId ? [r.lineageId] : [])))];
  const [versions, generations, lineages, medians] = await Promise.all([
    db.environmentVersion.findMany({ where: { id: { in: versionIds } }, select: { id: true, name: true, compromisedAt: true } }),
    db.generation.findMany({ where: { id: { in: generationIds } }, select: { id: true, number: true } }),
    db.lineage.findMany({ where: { id: { in: lineageIds } }, select: { id: true, name: true } }),
    medianTurns(db, versionIds),
  ]);
  const version = new Map(versions.map((v) => [v.id, v]));
  const generationNumber = new Map(generations.map((g) => [g.id, g.number]));
  const lineageName = new Map(lineages.map((l) => [l.id, l.name]));
  const empty = new Set(noArtifact.map((r) => r.id));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const input = {
      reward: row.reward,
      turns: row.turns,
      medianTurns: medians.get(row.versionId) ?? null,
      noArtifact: empty.has(row.id),
      touchedProtected: row.touchedProtected,
    };
    return [
      {
        id: row.id,
        versionId: row.versionId,
        environment: version.get(row.versionId)?.name ?? row.versionId.slice(0, 12),
        compromised: Boolean(version.get(row.versionId)?.compromisedAt),
        lineageId: row.lineageId,
        lineageName: row.lineageId ? (lineageName.get(row.lineageId) ?? null) : null,
        generationId: row.generationId,
        generationNumber: row.generationId ? (generationNumber.get(row.generationId) ?? null) : null,
        policy: row.policy,
        policyVersion: row.policyVersion,
        model: row.model,
        simulated: row.simulated,
        status: row.status,
        reward: row.reward,
        passed: row.passed,
        timedOut: row.timedOut,
        turns: row.turns,
        durationMs: row.durationMs,
        medianTurns: input.medianTurns,
        suspicion: suspicionScore(input),
        reasons: suspicionReasons(input),
        flaggedAt: row.flaggedAt?.toISOString() ?? null,
        createdAt: row.createdAt.toISOString(),
      },
    ];
  });
}

/** Median turns of each version over all its rollouts. */
export async function medianTurns(db: Db, versionIds: string[]): Promise<Map<string, number>> {
  if (versionIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ versionId: string; median: number }[]>(
    Prisma.sql`WITH ${mediansCte(Prisma.join(versionIds))} SELECT "versionId", "median" FROM medians`,
  );
  return new Map(rows.map((row) => [row.versionId, Number(row.median)]));
}

/**
 * The trajectories just before and after this one in the list's order and filters, by keyset
 * (row-value comparison with the sort key): no numbering of the whole list. One query.
 */
export async function trajectoryNeighbours(db: Db, query: TrajectoryListQuery, id: string): Promise<TrajectoryNeighbours> {
  const ranked = rankedSql(query);
  const { key, later, earlier, reversed } = sortKeySql(query);
  const current = Prisma.sql`(SELECT ${key} FROM ranked WHERE "id" = ${id})`;
  const [row] = await db.$queryRaw<
    { present: number | bigint; before: number | bigint; nextId: string | null; previousId: string | null; total: number | bigint }[]
  >(
    Prisma.sql`${ranked.with} SELECT
      (SELECT COUNT(*) FROM ranked WHERE "id" = ${id}) AS "present",
      (SELECT COUNT(*) FROM ranked WHERE (${key}) ${earlier} ${current}) AS "before",
      (SELECT "id" FROM ranked WHERE (${key}) ${later} ${current} ORDER BY ${ranked.order} LIMIT 1) AS "nextId",
      (SELECT "id" FROM ranked WHERE (${key}) ${earlier} ${current} ORDER BY ${reversed} LIMIT 1) AS "previousId",
      (SELECT COUNT(*) FROM ranked) AS "total"`,
  );
  const total = Number(row?.total ?? 0);
  if (!row || Number(row.present) === 0) return { position: null, total, previousId: null, nextId: null };
  return { position: Number(row.before) + 1, total, previousId: row.previousId, nextId: row.nextId };
}

/** What the filter form offers: policies, lineages and environment names that have rollouts. */
export async function trajectoryFacets(db: Db): Promise<TrajectoryFacets> {
  // DISTINCT in SQL: Prisma's `distinct` reads every row and dedupes in memory.
  const [policies, lineages, environments] = await Promise.all([
    db.$queryRaw<{ policy: string }[]>(Prisma.sql`SELECT DISTINCT "policy" FROM "Rollout" ORDER BY "policy" LIMIT ${FACET_LIMIT}`),
    db.$queryRaw<{ id: string; name: string }[]>(
      Prisma.sql`SELECT l."id", l."name" FROM "Lineage" l WHERE l."id" IN (SELECT DISTINCT "lineageId" FROM "Rollout") ORDER BY l."name" LIMIT ${FACET_LIMIT}`,
    ),
    db.$queryRaw<{ name: string }[]>(
      Prisma.sql`SELECT DISTINCT v."name" FROM "EnvironmentVersion" v WHERE v."id" IN (SELECT DISTINCT "versionId" FROM "Rollout") ORDER BY v."name" LIMIT ${FACET_LIMIT}`,
    ),
  ]);
  return { policies: policies.map((p) => p.policy), lineages, environments: environments.map((e) => e.name) };
}

// A select or datalist longer than this helps nobody; the text filters still reach the rest.
const FACET_LIMIT = 500;
