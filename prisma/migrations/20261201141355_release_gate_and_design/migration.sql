-- AlterTable
ALTER TABLE "Generation" ADD COLUMN "releaseRule" TEXT;
ALTER TABLE "Generation" ADD COLUMN "releasedByGroupId" TEXT;
ALTER TABLE "Generation" ADD COLUMN "releasedByPolicy" TEXT;

-- AlterTable
ALTER TABLE "ProbeGroup" ADD COLUMN "gateRule" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_CalibrationSet" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "passShare" REAL NOT NULL,
    "design" TEXT NOT NULL DEFAULT 'stratified',
    "populationPass" INTEGER,
    "populationFail" INTEGER,
    "seed" INTEGER NOT NULL,
    "overlap" INTEGER NOT NULL,
    "annotatorIds" TEXT NOT NULL,
    "verifierVersion" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'labelling',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_CalibrationSet" ("annotatorIds", "createdAt", "createdById", "id", "name", "overlap", "passShare", "scope", "seed", "size", "state", "updatedAt", "verifierVersion") SELECT "annotatorIds", "createdAt", "createdById", "id", "name", "overlap", "passShare", "scope", "seed", "size", "state", "updatedAt", "verifierVersion" FROM "CalibrationSet";
DROP TABLE "CalibrationSet";
ALTER TABLE "new_CalibrationSet" RENAME TO "CalibrationSet";
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
INSERT INTO "new_Lineage" ("approvalsRequired", "axisPolicy", "config", "createdAt", "effort", "frontier", "heldOutSet", "id", "name", "seed", "seedVersionId", "status", "synthesiser", "updatedAt") SELECT "approvalsRequired", "axisPolicy", "config", "createdAt", "effort", "frontier", "heldOutSet", "id", "name", "seed", "seedVersionId", "status", "synthesiser", "updatedAt" FROM "Lineage";
DROP TABLE "Lineage";
ALTER TABLE "new_Lineage" RENAME TO "Lineage";
CREATE INDEX "Lineage_seedVersionId_idx" ON "Lineage"("seedVersionId");
CREATE INDEX "Lineage_updatedAt_idx" ON "Lineage"("updatedAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
