-- CreateTable
CREATE TABLE "Blob" (
    "hash" TEXT NOT NULL PRIMARY KEY,
    "size" INTEGER NOT NULL,
    "content" BLOB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "EnvironmentVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "taskToml" TEXT NOT NULL,
    "instruction" TEXT NOT NULL,
    "metadata" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "EnvironmentFile" (
    "versionId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "blobHash" TEXT NOT NULL,
    "executable" BOOLEAN NOT NULL DEFAULT false,

    PRIMARY KEY ("versionId", "path"),
    CONSTRAINT "EnvironmentFile_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "EnvironmentVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "EnvironmentFile_blobHash_fkey" FOREIGN KEY ("blobHash") REFERENCES "Blob" ("hash") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ValidatorRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "versionId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reward" REAL,
    "rewardDetail" TEXT,
    "expectedReward" REAL NOT NULL,
    "imageId" TEXT,
    "agentExitCode" INTEGER,
    "verifierExitCode" INTEGER,
    "agentLog" TEXT NOT NULL DEFAULT '',
    "verifierLog" TEXT NOT NULL DEFAULT '',
    "error" TEXT,
    "containment" TEXT,
    "timedOut" BOOLEAN NOT NULL DEFAULT false,
    "buildDurationMs" INTEGER NOT NULL DEFAULT 0,
    "agentDurationMs" INTEGER NOT NULL DEFAULT 0,
    "verifierDurationMs" INTEGER NOT NULL DEFAULT 0,
    "totalDurationMs" INTEGER NOT NULL DEFAULT 0,
    "jobId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ValidatorRun_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "EnvironmentVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "priority" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 5,
    "runAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "heartbeatAt" DATETIME,
    "lastError" TEXT,
    "result" TEXT,
    "dedupeKey" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "EnvironmentVersion_name_idx" ON "EnvironmentVersion"("name");

-- CreateIndex
CREATE INDEX "EnvironmentVersion_createdAt_idx" ON "EnvironmentVersion"("createdAt");

-- CreateIndex
CREATE INDEX "EnvironmentFile_blobHash_idx" ON "EnvironmentFile"("blobHash");

-- CreateIndex
CREATE INDEX "ValidatorRun_versionId_kind_createdAt_idx" ON "ValidatorRun"("versionId", "kind", "createdAt");

-- CreateIndex
CREATE INDEX "ValidatorRun_jobId_idx" ON "ValidatorRun"("jobId");

-- CreateIndex
CREATE UNIQUE INDEX "Job_dedupeKey_key" ON "Job"("dedupeKey");

-- CreateIndex
CREATE INDEX "Job_state_runAt_priority_idx" ON "Job"("state", "runAt", "priority");

-- CreateIndex
CREATE INDEX "Job_state_leaseExpiresAt_idx" ON "Job"("state", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "Job_kind_state_idx" ON "Job"("kind", "state");
