// The list's filters and orders as SQL, written once and used for the page, the count and a
// trajectory's neighbours in the same order. Plain SQL that SQLite and PostgreSQL both run
// (Prisma's query API cannot say NULLS LAST or compare row values). The "suspicious" order reads
// the stored Rollout.suspicion (kept by suspicion-store.ts) through its index; the median turns
// it is scored against (mediansCte) are computed here only for that store and for the badges of
// one page's rows. Every value is a bound parameter but the column names and the unscored-reward stand-ins below.
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

// Each sort is a list of columns ending on createdAt then id, so the order is total and pages
// never overlap; the list runs along it one way or the other (`dir`). An unscored reward comes
// last either way (NULLS LAST: SQLite and PostgreSQL place NULL differently by default), since it
// is neither a high nor a low reward. Highest first is the column order of the index on
// (suspicion, reward, createdAt, id).
const TIE_BREAK = ['createdAt', 'id'] as const;
const COLUMNS: Record<TrajectoryListQuery['sort'], readonly string[]> = {
  reward: ['reward', ...TIE_BREAK],
  suspicious: ['suspicion', 'reward', ...TIE_BREAK],
  newest: [...TIE_BREAK],
  turns: ['turns', ...TIE_BREAK],
  duration: ['durationMs', ...TIE_BREAK],
};

type Direction = TrajectoryListQuery['dir'];
const flip = (dir: Direction): Direction => (dir === 'desc' ? 'asc' : 'desc');

function orderSql(sort: TrajectoryListQuery['sort'], dir: Direction): Sql {
  return Prisma.join(
    COLUMNS[sort].map((column) => Prisma.raw(`"${column}" ${dir.toUpperCase()}${column === 'reward' ? ' NULLS LAST' : ''}`)),
    ', ',
  );
}

// The same order as a row value, for keyset comparisons. Row values compare NULL as unknown, so an
// unscored reward becomes a value past every real reward on the side NULLS LAST puts it.
function keyColumns(sort: TrajectoryListQuery['sort'], dir: Direction): Sql[] {
  const unscored = Prisma.raw(dir === 'desc' ? '-1e300' : '1e300');
  return COLUMNS[sort].map((column) => (column === 'reward' ? Prisma.sql`COALESCE("reward", ${unscored})` : Prisma.raw(`"${column}"`)));
}

/**
 * The list's order as a row value: `key`, the comparison that puts a row after another in the
 * list (`later`, '<' when the list runs highest first), and `reversed`, the list's order the other
 * way round, for the row just before a given one.
 */
export function sortKeySql(query: Pick<TrajectoryListQuery, 'sort' | 'dir'>): { key: Sql; later: Sql; earlier: Sql; reversed: Sql } {
  return {
    key: Prisma.join(keyColumns(query.sort, query.dir), ', '),
    later: Prisma.raw(query.dir === 'desc' ? '<' : '>'),
    earlier: Prisma.raw(query.dir === 'desc' ? '>' : '<'),
    reversed: Prisma.join(
      keyColumns(query.sort, query.dir).map((column) => Prisma.sql`${column} ${Prisma.raw(flip(query.dir).toUpperCase())}`),
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
    order: orderSql(query.sort, query.dir),
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
