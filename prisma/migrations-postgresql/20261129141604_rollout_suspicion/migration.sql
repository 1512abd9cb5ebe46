-- AlterTable
ALTER TABLE "Rollout" ADD COLUMN     "suspicion" DOUBLE PRECISION NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Rollout_suspicion_reward_createdAt_id_idx" ON "Rollout"("suspicion" DESC, "reward" DESC, "createdAt" DESC, "id" DESC);

-- Backfill the stored score of every existing rollout, as lib/trajectories/suspicion-store.ts keeps it:
-- suspicionScore (lib/trajectories/suspicion.ts, weights 1, 1, 2) against the median turns of the
-- rollout's version over all that version's rollouts, in double precision.
WITH turn_counts AS (
    SELECT "versionId", "turns", COUNT(*) AS c FROM "Rollout" GROUP BY "versionId", "turns"),
  turn_cumulative AS (
    SELECT "versionId", "turns",
      SUM(c) OVER (PARTITION BY "versionId" ORDER BY "turns") AS upto,
      SUM(c) OVER (PARTITION BY "versionId") AS n
    FROM turn_counts),
  medians AS (
    SELECT "versionId",
      CAST((MIN(CASE WHEN 2 * upto >= n THEN "turns" END) + MIN(CASE WHEN 2 * upto >= n + 1 THEN "turns" END)) / 2.0 AS DOUBLE PRECISION) AS "median"
    FROM turn_cumulative GROUP BY "versionId")
UPDATE "Rollout" AS r SET "suspicion" = CASE WHEN COALESCE(r."reward", 0) <= 0 THEN 0 ELSE r."reward" * (
    CAST(1 AS DOUBLE PRECISION) * (CASE WHEN m."median" > 0 AND r."turns" < m."median" THEN 1.0 - r."turns" / m."median" ELSE 0 END)
  + CAST(1 AS DOUBLE PRECISION) * (CASE WHEN r."changedFiles" = '[]' THEN 1 ELSE 0 END)
  + CAST(2 AS DOUBLE PRECISION) * (CASE WHEN r."touchedProtected" THEN 1 ELSE 0 END)) END
FROM medians m WHERE m."versionId" = r."versionId";
