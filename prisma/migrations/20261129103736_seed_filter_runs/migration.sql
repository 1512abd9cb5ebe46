-- CreateTable
CREATE TABLE "SeedFilterRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "policy" TEXT NOT NULL,
    "maxPasses" INTEGER NOT NULL,
    "probeSize" INTEGER NOT NULL,
    "minTurns" REAL NOT NULL,
    "candidates" INTEGER NOT NULL,
    "kept" INTEGER NOT NULL,
    "result" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "SeedFilterRun_createdAt_idx" ON "SeedFilterRun"("createdAt");
