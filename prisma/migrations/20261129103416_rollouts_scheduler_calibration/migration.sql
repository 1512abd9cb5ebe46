-- AlterTable
ALTER TABLE "EnvironmentVersion" ADD COLUMN "compromisedAt" DATETIME;
ALTER TABLE "EnvironmentVersion" ADD COLUMN "compromisedReason" TEXT;
ALTER TABLE "EnvironmentVersion" ADD COLUMN "heldOutSet" TEXT;

-- AlterTable
ALTER TABLE "Lineage" ADD COLUMN "heldOutSet" TEXT;

-- CreateTable
CREATE TABLE "ProbeGroup" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "versionId" TEXT NOT NULL,
    "generationId" TEXT,
    "lineageId" TEXT,
    "purpose" TEXT NOT NULL,
    "policy" TEXT NOT NULL,
    "policyVersion" TEXT NOT NULL,
    "simulated" BOOLEAN NOT NULL DEFAULT false,
    "size" INTEGER NOT NULL,
    "passThreshold" REAL NOT NULL DEFAULT 1,
    "passes" INTEGER NOT NULL DEFAULT 0,
    "completed" INTEGER NOT NULL DEFAULT 0,
    "timeouts" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL DEFAULT 'running',
    "gate" TEXT,
    "evalSet" TEXT,
    "jobId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME
);

-- CreateTable
CREATE TABLE "Rollout" (
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
    "flaggedAt" DATETIME,
    "flaggedById" TEXT,
    "jobId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "Rollout_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "ProbeGroup" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Rollout_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "EnvironmentVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TrajectoryStep" (
    "rolloutId" TEXT NOT NULL,
    "stepId" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',
    "reasoning" TEXT,
    "command" TEXT,
    "output" TEXT,
    "exitCode" INTEGER,
    "durationMs" INTEGER,
    "timedOut" BOOLEAN NOT NULL DEFAULT false,
    "promptTokens" INTEGER,
    "completionTokens" INTEGER,
    "cachedTokens" INTEGER,
    "toolCalls" TEXT,
    "extra" TEXT,
    "timestamp" DATETIME,

    PRIMARY KEY ("rolloutId", "stepId"),
    CONSTRAINT "TrajectoryStep_rolloutId_fkey" FOREIGN KEY ("rolloutId") REFERENCES "Rollout" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "EnvironmentProfile" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "versionId" TEXT NOT NULL,
    "imageId" TEXT NOT NULL,
    "policy" TEXT NOT NULL,
    "samples" INTEGER NOT NULL,
    "p50Ms" INTEGER NOT NULL,
    "p95Ms" INTEGER NOT NULL,
    "p99Ms" INTEGER NOT NULL,
    "concurrencyCeiling" INTEGER NOT NULL,
    "curve" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "CalibrationSet" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "passShare" REAL NOT NULL,
    "seed" INTEGER NOT NULL,
    "overlap" INTEGER NOT NULL,
    "annotatorIds" TEXT NOT NULL,
    "verifierVersion" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'labelling',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "CalibrationItem" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "setId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "rolloutId" TEXT NOT NULL,
    "stratum" TEXT NOT NULL,
    "verifierReward" REAL,
    "verifierPassed" BOOLEAN NOT NULL,
    "assigneeId" TEXT,
    "assignedAt" DATETIME,
    "finalLabel" TEXT,
    "adjudicatedById" TEXT,
    "adjudicatedAt" DATETIME,
    "adjudicationNote" TEXT,
    CONSTRAINT "CalibrationItem_setId_fkey" FOREIGN KEY ("setId") REFERENCES "CalibrationSet" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CalibrationLabel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "itemId" TEXT NOT NULL,
    "annotatorId" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "durationMs" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CalibrationLabel_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "CalibrationItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CalibrationRescore" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "itemId" TEXT NOT NULL,
    "verifierVersion" TEXT NOT NULL,
    "reward" REAL,
    "passed" BOOLEAN,
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CalibrationRescore_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "CalibrationItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ProbeGroup_versionId_purpose_createdAt_idx" ON "ProbeGroup"("versionId", "purpose", "createdAt");

-- CreateIndex
CREATE INDEX "ProbeGroup_generationId_createdAt_idx" ON "ProbeGroup"("generationId", "createdAt");

-- CreateIndex
CREATE INDEX "ProbeGroup_lineageId_createdAt_idx" ON "ProbeGroup"("lineageId", "createdAt");

-- CreateIndex
CREATE INDEX "Rollout_reward_createdAt_idx" ON "Rollout"("reward", "createdAt");

-- CreateIndex
CREATE INDEX "Rollout_versionId_createdAt_idx" ON "Rollout"("versionId", "createdAt");

-- CreateIndex
CREATE INDEX "Rollout_lineageId_generationId_idx" ON "Rollout"("lineageId", "generationId");

-- CreateIndex
CREATE INDEX "Rollout_policy_createdAt_idx" ON "Rollout"("policy", "createdAt");

-- CreateIndex
CREATE INDEX "Rollout_createdAt_idx" ON "Rollout"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Rollout_groupId_attempt_key" ON "Rollout"("groupId", "attempt");

-- CreateIndex
CREATE INDEX "EnvironmentProfile_versionId_createdAt_idx" ON "EnvironmentProfile"("versionId", "createdAt");

-- CreateIndex
CREATE INDEX "CalibrationItem_setId_assigneeId_idx" ON "CalibrationItem"("setId", "assigneeId");

-- CreateIndex
CREATE UNIQUE INDEX "CalibrationItem_setId_position_key" ON "CalibrationItem"("setId", "position");

-- CreateIndex
CREATE INDEX "CalibrationLabel_annotatorId_idx" ON "CalibrationLabel"("annotatorId");

-- CreateIndex
CREATE UNIQUE INDEX "CalibrationLabel_itemId_annotatorId_key" ON "CalibrationLabel"("itemId", "annotatorId");

-- CreateIndex
CREATE UNIQUE INDEX "CalibrationRescore_itemId_verifierVersion_key" ON "CalibrationRescore"("itemId", "verifierVersion");
