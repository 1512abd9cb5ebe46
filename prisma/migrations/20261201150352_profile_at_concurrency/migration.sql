-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_EnvironmentProfile" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "versionId" TEXT NOT NULL,
    "imageId" TEXT NOT NULL,
    "policy" TEXT NOT NULL,
    "samples" INTEGER NOT NULL,
    "concurrency" INTEGER NOT NULL DEFAULT 1,
    "p50Ms" INTEGER,
    "p95Ms" INTEGER,
    "p99Ms" INTEGER,
    "concurrencyCeiling" INTEGER NOT NULL,
    "curve" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_EnvironmentProfile" ("concurrencyCeiling", "createdAt", "curve", "id", "imageId", "p50Ms", "p95Ms", "p99Ms", "policy", "samples", "versionId") SELECT "concurrencyCeiling", "createdAt", "curve", "id", "imageId", "p50Ms", "p95Ms", "p99Ms", "policy", "samples", "versionId" FROM "EnvironmentProfile";
DROP TABLE "EnvironmentProfile";
ALTER TABLE "new_EnvironmentProfile" RENAME TO "EnvironmentProfile";
CREATE INDEX "EnvironmentProfile_versionId_createdAt_idx" ON "EnvironmentProfile"("versionId", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
