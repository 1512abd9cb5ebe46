-- AlterTable
ALTER TABLE "EnvironmentVersion" ADD COLUMN "difficultyLength" REAL;
ALTER TABLE "EnvironmentVersion" ADD COLUMN "difficultyModel" TEXT;
ALTER TABLE "EnvironmentVersion" ADD COLUMN "difficultyScenario" REAL;
ALTER TABLE "EnvironmentVersion" ADD COLUMN "difficultySkill" REAL;

-- CreateTable
CREATE TABLE "Lineage" (
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Generation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "lineageId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "parentVersionId" TEXT NOT NULL,
    "versionId" TEXT,
    "axis" TEXT NOT NULL,
    "effort" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Generation_lineageId_fkey" FOREIGN KEY ("lineageId") REFERENCES "Lineage" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PlanRound" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "generationId" TEXT NOT NULL,
    "round" INTEGER NOT NULL,
    "plan" TEXT NOT NULL,
    "approved" BOOLEAN NOT NULL,
    "review" TEXT NOT NULL,
    "rubricVersion" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PlanRound_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Attempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "generationId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "feedback" TEXT NOT NULL DEFAULT '',
    "residual" TEXT,
    "candidateVersionId" TEXT,
    "state" TEXT NOT NULL,
    "error" TEXT,
    "durationMs" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Attempt_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RubricItem" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "key" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "check" TEXT,
    "question" TEXT,
    "appliesTo" TEXT NOT NULL DEFAULT 'environment',
    "scope" TEXT NOT NULL DEFAULT 'global',
    "lineageId" TEXT,
    "source" TEXT NOT NULL DEFAULT 'builtin',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "RubricVerdict" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "validatorRunId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "detail" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RubricVerdict_validatorRunId_fkey" FOREIGN KEY ("validatorRunId") REFERENCES "ValidatorRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RubricVerdict_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "RubricItem" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PriorEstimate" (
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "given" TEXT NOT NULL DEFAULT '',
    "probability" REAL NOT NULL,
    "model" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("kind", "name", "given")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    "role" TEXT NOT NULL DEFAULT 'reviewer',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "expiresAt" DATETIME NOT NULL,
    "token" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "ipAddress" TEXT,
    "userAgent" TEXT,
    "userId" TEXT NOT NULL,
    CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "accessToken" TEXT,
    "refreshToken" TEXT,
    "idToken" TEXT,
    "accessTokenExpiresAt" DATETIME,
    "refreshTokenExpiresAt" DATETIME,
    "scope" TEXT,
    "password" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Verification" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "actorId" TEXT,
    "actorEmail" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "subjectType" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "before" TEXT,
    "after" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Review" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "generationId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "revision" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Review_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReviewComment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "generationId" TEXT NOT NULL,
    "authorId" TEXT NOT NULL,
    "path" TEXT,
    "line" INTEGER,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ReviewComment_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "FileViewMark" (
    "userId" TEXT NOT NULL,
    "generationId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("userId", "generationId", "path")
);

-- CreateTable
CREATE TABLE "MissedIssue" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "generationId" TEXT NOT NULL,
    "reporterId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "validatorKind" TEXT NOT NULL,
    "check" TEXT,
    "question" TEXT,
    "state" TEXT NOT NULL DEFAULT 'open',
    "rubricItemId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "MissedIssue_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "BacktestFinding" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "rubricItemId" TEXT NOT NULL,
    "generationId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "detail" TEXT NOT NULL DEFAULT '',
    "sentToReview" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ValidatorRun" (
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
    "attemptId" TEXT,
    "rubricVersion" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ValidatorRun_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "EnvironmentVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ValidatorRun_attemptId_fkey" FOREIGN KEY ("attemptId") REFERENCES "Attempt" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_ValidatorRun" ("agentDurationMs", "agentExitCode", "agentLog", "buildDurationMs", "containment", "createdAt", "error", "expectedReward", "id", "imageId", "jobId", "kind", "reward", "rewardDetail", "status", "timedOut", "totalDurationMs", "verdict", "verifierDurationMs", "verifierExitCode", "verifierLog", "versionId") SELECT "agentDurationMs", "agentExitCode", "agentLog", "buildDurationMs", "containment", "createdAt", "error", "expectedReward", "id", "imageId", "jobId", "kind", "reward", "rewardDetail", "status", "timedOut", "totalDurationMs", "verdict", "verifierDurationMs", "verifierExitCode", "verifierLog", "versionId" FROM "ValidatorRun";
DROP TABLE "ValidatorRun";
ALTER TABLE "new_ValidatorRun" RENAME TO "ValidatorRun";
CREATE INDEX "ValidatorRun_versionId_kind_createdAt_idx" ON "ValidatorRun"("versionId", "kind", "createdAt");
CREATE INDEX "ValidatorRun_jobId_idx" ON "ValidatorRun"("jobId");
CREATE INDEX "ValidatorRun_attemptId_idx" ON "ValidatorRun"("attemptId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Lineage_seedVersionId_idx" ON "Lineage"("seedVersionId");

-- CreateIndex
CREATE INDEX "Lineage_updatedAt_idx" ON "Lineage"("updatedAt");

-- CreateIndex
CREATE INDEX "Generation_lineageId_number_idx" ON "Generation"("lineageId", "number");

-- CreateIndex
CREATE INDEX "Generation_state_updatedAt_idx" ON "Generation"("state", "updatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "PlanRound_generationId_round_key" ON "PlanRound"("generationId", "round");

-- CreateIndex
CREATE INDEX "Attempt_candidateVersionId_idx" ON "Attempt"("candidateVersionId");

-- CreateIndex
CREATE UNIQUE INDEX "Attempt_generationId_number_key" ON "Attempt"("generationId", "number");

-- CreateIndex
CREATE INDEX "RubricItem_active_scope_idx" ON "RubricItem"("active", "scope");

-- CreateIndex
CREATE UNIQUE INDEX "RubricItem_key_version_key" ON "RubricItem"("key", "version");

-- CreateIndex
CREATE INDEX "RubricVerdict_validatorRunId_idx" ON "RubricVerdict"("validatorRunId");

-- CreateIndex
CREATE INDEX "RubricVerdict_itemId_idx" ON "RubricVerdict"("itemId");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Session_token_key" ON "Session"("token");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "Account_userId_idx" ON "Account"("userId");

-- CreateIndex
CREATE INDEX "Verification_identifier_idx" ON "Verification"("identifier");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_userId_idx" ON "ApiToken"("userId");

-- CreateIndex
CREATE INDEX "AuditEvent_subjectType_subjectId_idx" ON "AuditEvent"("subjectType", "subjectId");

-- CreateIndex
CREATE INDEX "AuditEvent_createdAt_idx" ON "AuditEvent"("createdAt");

-- CreateIndex
CREATE INDEX "Review_generationId_createdAt_idx" ON "Review"("generationId", "createdAt");

-- CreateIndex
CREATE INDEX "Review_reviewerId_idx" ON "Review"("reviewerId");

-- CreateIndex
CREATE INDEX "ReviewComment_generationId_idx" ON "ReviewComment"("generationId");

-- CreateIndex
CREATE INDEX "MissedIssue_state_createdAt_idx" ON "MissedIssue"("state", "createdAt");

-- CreateIndex
CREATE INDEX "MissedIssue_generationId_idx" ON "MissedIssue"("generationId");

-- CreateIndex
CREATE INDEX "BacktestFinding_rubricItemId_verdict_idx" ON "BacktestFinding"("rubricItemId", "verdict");
