// The list's filters and orders as SQL, written once and used for the page, the count and a
// trajectory's neighbours in the same order. Plain SQL that SQLite and PostgreSQL both run
// (Prisma's query API cannot say NULLS LAST or compare row values). The "suspicious" order reads
// the stored Rollout.suspicion (kept by suspicion-store.ts) through its index; the median turns
// it is scored against (mediansCte) are computed here only for that store and for the badges of
// one page's rows. Every value is a bound parameter but the constant UNSCORED below.
import { Prisma, likeContains } from '../db/index.ts';
import type { TrajectoryListQuery } from './list-query.ts';

type Sql = Prisma.Sql;

/** The WHERE clause over `"Rollout" r` (always a clause: "TRUE"-like when nothing is filtered). */
export function whereSql(query: TrajectoryListQuery): Sql {
  const parts: Sql[] = [];
  if (query.rewardMin !== undefined) parts.push(Prisma.sql`r."reward" >= ${query.rewardMin}`);
  if (query.rewardMax !== undefined) parts.push(Prisma.sql`r."reward" <= ${query.rewardMax}`);
  if (query.passed === 'yes') parts.push(Prisma.sql`r."passed" = ${true}`);
  if (query.passed === 'no') parts.push(Prisma.sql`(r."passed" IS NULL OR r."passed" = ${false})`);
  if (query.env !== undefined) {
    parts.push(Prisma.sql`r."versionId" IN (SELECT ev."id" FROM "EnvironmentVersion" ev WHERE ev."name" LIKE ${likeContains(query.env)} ESCAPE '\\')`);
  }
  if (query.version !== undefined) parts.push(Prisma.sql`r."versionId" = ${query.version}`);
  if (query.lineage !== undefined) parts.push(Prisma.sql`r."lineageId" = ${query.lineage}`);
  if (query.generation !== undefined) {
    parts.push(Prisma.sql`r."generationId" IN (SELECT g."id" FROM "Generation" g WHERE g."number" = ${query.generation})`);
  }
  if (query.policy !== undefined) parts.push(Prisma.sql`r."policy" = ${query.policy}`);
  if (query.turnsMin !== undefined) parts.push(Prisma.sql`r."turns" >= ${query.turnsMin}`);
  if (query.turnsMax !== undefined) parts.push(Prisma.sql`r."turns" <= ${query.turnsMax}`);
  if (query.durationMin !== undefined) parts.push(Prisma.sql`r."durationMs" >= ${Math.round(query.durationMin * 1000)}`);
  if (query.durationMax !== undefined) parts.push(Prisma.sql`r."durationMs" <= ${Math.round(query.durationMax * 1000)}`);
  if (query.timedOut !== undefined) parts.push(Prisma.sql`r."timedOut" = ${query.timedOut === 'yes'}`);
  if (query.simulated !== undefined) parts.push(Prisma.sql`r."simulated" = ${query.simulated === 'yes'}`);
  if (query.flagged === 'yes') parts.push(Prisma.sql`r."flaggedAt" IS NOT NULL`);
  if (query.flagged === 'no') parts.push(Prisma.sql`r."flaggedAt" IS NULL`);
  return parts.length ? Prisma.sql`WHERE ${Prisma.join(parts, ' AND ')}` : Prisma.empty;
}

// Every order is descending on all its keys and ends on createdAt then id, so it is total and
// pages never overlap. NULLS LAST: SQLite and PostgreSQL place NULL differently by default.
// The suspicious order is the column order of the index on (suspicion, reward, createdAt, id).
const REWARD_ORDER = Prisma.sql`"reward" DESC NULLS LAST, "createdAt" DESC, "id" DESC`;
const ORDERS: Record<TrajectoryListQuery['sort'], Sql> = {
  reward: REWARD_ORDER,
  suspicious: Prisma.sql`"suspicion" DESC, ${REWARD_ORDER}`,
  newest: Prisma.sql`"createdAt" DESC, "id" DESC`,
  turns: Prisma.sql`"turns" DESC, "createdAt" DESC, "id" DESC`,
  duration: Prisma.sql`"durationMs" DESC, "createdAt" DESC, "id" DESC`,
};

// The same orders as row values, for keyset comparisons (row values compare NULL as unknown,
// so an unscored reward becomes a value below any real reward, which is where NULLS LAST puts it).
const UNSCORED = Prisma.raw('-1e300');
const REWARD_KEY = [Prisma.sql`COALESCE("reward", ${UNSCORED})`, Prisma.sql`"createdAt"`, Prisma.sql`"id"`];
const KEYS: Record<TrajectoryListQuery['sort'], Sql[]> = {
  reward: REWARD_KEY,
  suspicious: [Prisma.sql`"suspicion"`, ...REWARD_KEY],
  newest: [Prisma.sql`"createdAt"`, Prisma.sql`"id"`],
  turns: [Prisma.sql`"turns"`, Prisma.sql`"createdAt"`, Prisma.sql`"id"`],
  duration: [Prisma.sql`"durationMs"`, Prisma.sql`"createdAt"`, Prisma.sql`"id"`],
};

/**
 * The sort as a row value: the list order is this key descending. `ascending` orders by it
 * the other way, for the row just before a given one.
 */
export function sortKeySql(sort: TrajectoryListQuery['sort']): { key: Sql; ascending: Sql } {
  return {
    key: Prisma.join(KEYS[sort], ', '),
    ascending: Prisma.join(
      KEYS[sort].map((column) => Prisma.sql`${column} ASC`),
      ', ',
    ),
  };
}

/**
 * A WITH clause defining the table expression `ranked` (id and the order columns of every
 * matching rollout) and the ORDER BY over it.
 */
export function rankedSql(query: TrajectoryListQuery): { with: Sql; order: Sql } {
  return {
    with: Prisma.sql`WITH ranked AS (SELECT r."id", r."reward", r."turns", r."durationMs", r."createdAt", r."suspicion" FROM "Rollout" r ${whereSql(query)})`,
    order: ORDERS[query.sort],
  };
}

/**
 * `turn_counts, turn_cumulative, medians (versionId, median)`: the median turns of each version
 * in `versions`, over all its rollouts. From the (versionId, turns) histogram, which the
 * index on those columns reads without sorting: with `upto` rollouts at or below a turns value
 * out of n, the lower middle is the first value with 2·upto ≥ n and the upper middle the
 * first with 2·upto ≥ n + 1 (the same value when n is odd). Comparisons only: no integer
 * division, which SQLite and PostgreSQL do differently on COUNT's types.
 */
export function mediansCte(versions: Sql): Sql {
  return Prisma.sql`turn_counts AS (
      SELECT x."versionId", x."turns", COUNT(*) AS c FROM "Rollout" x
      WHERE x."versionId" IN (${versions}) GROUP BY x."versionId", x."turns"),
    turn_cumulative AS (
      SELECT "versionId", "turns",
        SUM(c) OVER (PARTITION BY "versionId" ORDER BY "turns") AS upto,
        SUM(c) OVER (PARTITION BY "versionId") AS n
      FROM turn_counts),
    medians AS (
      SELECT "versionId",
        (MIN(CASE WHEN 2 * upto >= n THEN "turns" END) + MIN(CASE WHEN 2 * upto >= n + 1 THEN "turns" END)) / 2.0 AS "median"
      FROM turn_cumulative GROUP BY "versionId")`;
}

export function countSql(query: TrajectoryListQuery): Sql {
  return Prisma.sql`SELECT COUNT(*) AS "count" FROM "Rollout" r ${whereSql(query)}`;
}
