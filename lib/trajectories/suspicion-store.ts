// The suspicious order's score, stored in Rollout.suspicion so the list sorts by an index
// instead of scoring every rollout per request. A rollout's score depends on the median turns of
// its environment version over all that version's rollouts, so one rollout's change can move every
// score of its version: whoever creates a rollout or changes its reward, turns, changedFiles or
// touchedProtected refreshes the whole version.
//
// Refresh after the change commits, not inside the transaction that made it: on PostgreSQL two
// such transactions of one version would each hold their own rollout's row and wait for the
// other's in the refresh (a deadlock). Each refresh is one statement that reads the median and
// writes the scores, so it sees every change committed before it started. On PostgreSQL, of two
// refreshes of one version that overlap, the earlier can still write a row after the later one
// with its older median (READ COMMITTED rereads the row, not the median); the version's next
// refresh corrects it.
import { createDb, type Db, Prisma } from '../db/index.ts';
import { mediansCte } from './list-sql.ts';
import { SUSPICION_WEIGHTS } from './suspicion.ts';

const weight = (value: number) => Prisma.sql`CAST(${value} AS DOUBLE PRECISION)`;

// suspicionScore (suspicion.ts) in SQL over `"Rollout" r` and its version's `median`, in double
// precision as in JavaScript (PostgreSQL's median is NUMERIC until cast).
const MEDIAN = Prisma.sql`CAST(m."median" AS DOUBLE PRECISION)`;
const SCORE = Prisma.sql`CASE WHEN COALESCE(r."reward", 0) <= 0 THEN 0 ELSE r."reward" * (
    ${weight(SUSPICION_WEIGHTS.fewTurns)} * (CASE WHEN ${MEDIAN} > 0 AND r."turns" < ${MEDIAN} THEN 1.0 - r."turns" / ${MEDIAN} ELSE 0 END)
  + ${weight(SUSPICION_WEIGHTS.noArtifact)} * (CASE WHEN r."changedFiles" = ${'[]'} THEN 1 ELSE 0 END)
  + ${weight(SUSPICION_WEIGHTS.touchedProtected)} * (CASE WHEN r."touchedProtected" THEN 1 ELSE 0 END)) END`;

/** Sets the stored score of every rollout of the versions that `versions` (a SELECT or a list) yields. */
async function refreshVersions(db: Db, versions: Prisma.Sql): Promise<void> {
  await db.$executeRaw(
    Prisma.sql`WITH ${mediansCte(versions)}
      UPDATE "Rollout" AS r SET "suspicion" = ${SCORE}
      FROM medians m WHERE m."versionId" = r."versionId"`,
  );
}

/** Recomputes the stored suspicion of every rollout of these environment versions. */
export async function refreshSuspicion(db: Db, versionIds: string[]): Promise<void> {
  const unique = [...new Set(versionIds)];
  if (unique.length) await refreshVersions(db, Prisma.join(unique));
}

/** Recomputes every stored suspicion: after rows were written without the refresh (bulk seeding). */
export async function refreshAllSuspicion(db: Db): Promise<void> {
  await refreshVersions(db, Prisma.sql`SELECT "versionId" FROM "Rollout"`);
}

/** refreshAllSuspicion for a seeder that wrote the database at `url` with raw SQL. */
export async function refreshAllSuspicionAt(url: string): Promise<void> {
  const db = createDb(url);
  try {
    await refreshAllSuspicion(db);
  } finally {
    await db.$disconnect();
  }
}
