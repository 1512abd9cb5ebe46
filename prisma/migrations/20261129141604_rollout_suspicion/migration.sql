-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Rollout" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "groupId" TEXT,
    "attempt" INTEGER NOT NULL,
    "versionId" TEXT NOT NULL,
    "generationId" TEXT,
    "lineageId" TEXT,
    "imageId" TEXT,
    "policy" TEXT NOT NULL,
    "policyVersion" TEXT NOT NULL,
    "model" TEXT,
    "simulated" BOOLEAN NOT NULL DEFAULT false,
    "seed" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "reward" REAL,
    "passed" BOOLEAN,
    "timedOut" BOOLEAN NOT NULL DEFAULT false,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "durationMs" INTEGER NOT NULL DEFAULT 0,
    "agentDurationMs" INTEGER NOT NULL DEFAULT 0,
    "verifierDurationMs" INTEGER NOT NULL DEFAULT 0,
    "promptTokens" INTEGER,
    "completionTokens" INTEGER,
    "cachedTokens" INTEGER,
    "rewardDetail" TEXT,
    "verifierLog" TEXT NOT NULL DEFAULT '',
    "verifierExitCode" INTEGER,
    "ctrf" TEXT,
    "changedFiles" TEXT NOT NULL DEFAULT '[]',
    "touchedProtected" BOOLEAN NOT NULL DEFAULT false,
    "error" TEXT,
    "atif" TEXT NOT NULL DEFAULT '{}',
    "suspicion" REAL NOT NULL DEFAULT 0,
    "flaggedAt" DATETIME,
    "flaggedById" TEXT,
    "jobId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "Rollout_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "ProbeGroup" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Rollout_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "EnvironmentVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Rollout" ("agentDurationMs", "atif", "attempt", "cachedTokens", "changedFiles", "completionTokens", "createdAt", "ctrf", "durationMs", "error", "finishedAt", "flaggedAt", "flaggedById", "generationId", "groupId", "id", "imageId", "jobId", "lineageId", "model", "passed", "policy", "policyVersion", "promptTokens", "reward", "rewardDetail", "seed", "simulated", "status", "timedOut", "touchedProtected", "turns", "verifierDurationMs", "verifierExitCode", "verifierLog", "versionId") SELECT "agentDurationMs", "atif", "attempt", "cachedTokens", "changedFiles", "completionTokens", "createdAt", "ctrf", "durationMs", "error", "finishedAt", "flaggedAt", "flaggedById", "generationId", "groupId", "id", "imageId", "jobId", "lineageId", "model", "passed", "policy", "policyVersion", "promptTokens", "reward", "rewardDetail", "seed", "simulated", "status", "timedOut", "touchedProtected", "turns", "verifierDurationMs", "verifierExitCode", "verifierLog", "versionId" FROM "Rollout";
DROP TABLE "Rollout";
ALTER TABLE "new_Rollout" RENAME TO "Rollout";
CREATE INDEX "Rollout_reward_createdAt_idx" ON "Rollout"("reward", "createdAt");
CREATE INDEX "Rollout_versionId_createdAt_idx" ON "Rollout"("versionId", "createdAt");
CREATE INDEX "Rollout_lineageId_generationId_idx" ON "Rollout"("lineageId", "generationId");
CREATE INDEX "Rollout_policy_createdAt_idx" ON "Rollout"("policy", "createdAt");
CREATE INDEX "Rollout_createdAt_idx" ON "Rollout"("createdAt");
CREATE INDEX "Rollout_versionId_turns_idx" ON "Rollout"("versionId", "turns");
CREATE INDEX "Rollout_turns_createdAt_idx" ON "Rollout"("turns", "createdAt");
CREATE INDEX "Rollout_durationMs_createdAt_idx" ON "Rollout"("durationMs", "createdAt");
CREATE INDEX "Rollout_suspicion_reward_createdAt_id_idx" ON "Rollout"("suspicion" DESC, "reward" DESC, "createdAt" DESC, "id" DESC);
CREATE UNIQUE INDEX "Rollout_groupId_attempt_key" ON "Rollout"("groupId", "attempt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

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
