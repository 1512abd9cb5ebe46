-- AlterTable
ALTER TABLE "EnvironmentVersion" ADD COLUMN "difficultyDepth" INTEGER;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Lineage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "seedVersionId" TEXT NOT NULL,
    "axisPolicy" TEXT NOT NULL,
    "effort" TEXT NOT NULL,
    "synthesiser" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "config" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'idle',
    "exhaustedAxes" TEXT NOT NULL DEFAULT '{}',
    "approvalsRequired" INTEGER NOT NULL DEFAULT 1,
    "frontier" INTEGER,
    "heldOutSet" TEXT,
    "probePolicy" TEXT,
    "releaseRate" REAL,
    "minGroup" INTEGER,
    "timeoutReward" REAL,
    "demoMode" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Lineage" ("approvalsRequired", "axisPolicy", "config", "createdAt", "demoMode", "effort", "frontier", "heldOutSet", "id", "minGroup", "name", "probePolicy", "releaseRate", "seed", "seedVersionId", "status", "synthesiser", "timeoutReward", "updatedAt") SELECT "approvalsRequired", "axisPolicy", "config", "createdAt", "demoMode", "effort", "frontier", "heldOutSet", "id", "minGroup", "name", "probePolicy", "releaseRate", "seed", "seedVersionId", "status", "synthesiser", "timeoutReward", "updatedAt" FROM "Lineage";
DROP TABLE "Lineage";
ALTER TABLE "new_Lineage" RENAME TO "Lineage";
CREATE INDEX "Lineage_seedVersionId_idx" ON "Lineage"("seedVersionId");
CREATE INDEX "Lineage_updatedAt_idx" ON "Lineage"("updatedAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
