-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Blob" (
    "hash" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "content" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Blob_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "EnvironmentVersion" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "taskToml" TEXT NOT NULL,
    "instruction" TEXT NOT NULL,
    "metadata" TEXT NOT NULL DEFAULT '{}',
    "difficultyLength" DOUBLE PRECISION,
    "difficultyScenario" DOUBLE PRECISION,
    "difficultySkill" DOUBLE PRECISION,
    "difficultyModel" TEXT,
    "heldOutSet" TEXT,
    "compromisedAt" TIMESTAMP(3),
    "compromisedReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EnvironmentVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EnvironmentFile" (
    "versionId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "blobHash" TEXT NOT NULL,
    "executable" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "EnvironmentFile_pkey" PRIMARY KEY ("versionId","path")
);

-- CreateTable
CREATE TABLE "ValidatorRun" (
    "id" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reward" DOUBLE PRECISION,
    "rewardDetail" TEXT,
    "expectedReward" DOUBLE PRECISION NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ValidatorRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "priority" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 5,
    "runAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "heartbeatAt" TIMESTAMP(3),
    "lastError" TEXT,
    "result" TEXT,
    "dedupeKey" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Lineage" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Lineage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Generation" (
    "id" TEXT NOT NULL,
    "lineageId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "parentVersionId" TEXT NOT NULL,
    "versionId" TEXT,
    "axis" TEXT NOT NULL,
    "effort" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Generation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PlanRound" (
    "id" TEXT NOT NULL,
    "generationId" TEXT NOT NULL,
    "round" INTEGER NOT NULL,
    "plan" TEXT NOT NULL,
    "approved" BOOLEAN NOT NULL,
    "review" TEXT NOT NULL,
    "rubricVersion" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PlanRound_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Attempt" (
    "id" TEXT NOT NULL,
    "generationId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "feedback" TEXT NOT NULL DEFAULT '',
    "residual" TEXT,
    "candidateVersionId" TEXT,
    "state" TEXT NOT NULL,
    "error" TEXT,
    "durationMs" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Attempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RubricItem" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RubricItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RubricVerdict" (
    "id" TEXT NOT NULL,
    "validatorRunId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "detail" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RubricVerdict_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PriorEstimate" (
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "given" TEXT NOT NULL DEFAULT '',
    "probability" DOUBLE PRECISION NOT NULL,
    "model" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PriorEstimate_pkey" PRIMARY KEY ("kind","name","given")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    "role" TEXT NOT NULL DEFAULT 'reviewer',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "token" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "ipAddress" TEXT,
    "userAgent" TEXT,
    "userId" TEXT NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "accessToken" TEXT,
    "refreshToken" TEXT,
    "idToken" TEXT,
    "accessTokenExpiresAt" TIMESTAMP(3),
    "refreshTokenExpiresAt" TIMESTAMP(3),
    "scope" TEXT,
    "password" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Verification" (
    "id" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Verification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL,
    "actorId" TEXT,
    "actorEmail" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "subjectType" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "before" TEXT,
    "after" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Review" (
    "id" TEXT NOT NULL,
    "generationId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "revision" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Review_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewComment" (
    "id" TEXT NOT NULL,
    "generationId" TEXT NOT NULL,
    "authorId" TEXT NOT NULL,
    "path" TEXT,
    "line" INTEGER,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewComment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FileViewMark" (
    "userId" TEXT NOT NULL,
    "generationId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FileViewMark_pkey" PRIMARY KEY ("userId","generationId","path")
);

-- CreateTable
CREATE TABLE "MissedIssue" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MissedIssue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BacktestFinding" (
    "id" TEXT NOT NULL,
    "rubricItemId" TEXT NOT NULL,
    "generationId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "detail" TEXT NOT NULL DEFAULT '',
    "sentToReview" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BacktestFinding_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProbeGroup" (
    "id" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "generationId" TEXT,
    "lineageId" TEXT,
    "purpose" TEXT NOT NULL,
    "policy" TEXT NOT NULL,
    "policyVersion" TEXT NOT NULL,
    "simulated" BOOLEAN NOT NULL DEFAULT false,
    "size" INTEGER NOT NULL,
    "passThreshold" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "passes" INTEGER NOT NULL DEFAULT 0,
    "completed" INTEGER NOT NULL DEFAULT 0,
    "timeouts" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL DEFAULT 'running',
    "gate" TEXT,
    "evalSet" TEXT,
    "jobId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ProbeGroup_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Rollout" (
    "id" TEXT NOT NULL,
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
    "reward" DOUBLE PRECISION,
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
    "flaggedAt" TIMESTAMP(3),
    "flaggedById" TEXT,
    "jobId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Rollout_pkey" PRIMARY KEY ("id")
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
    "timestamp" TIMESTAMP(3),

    CONSTRAINT "TrajectoryStep_pkey" PRIMARY KEY ("rolloutId","stepId")
);

-- CreateTable
CREATE TABLE "EnvironmentProfile" (
    "id" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "imageId" TEXT NOT NULL,
    "policy" TEXT NOT NULL,
    "samples" INTEGER NOT NULL,
    "p50Ms" INTEGER NOT NULL,
    "p95Ms" INTEGER NOT NULL,
    "p99Ms" INTEGER NOT NULL,
    "concurrencyCeiling" INTEGER NOT NULL,
    "curve" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EnvironmentProfile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CalibrationSet" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "passShare" DOUBLE PRECISION NOT NULL,
    "seed" INTEGER NOT NULL,
    "overlap" INTEGER NOT NULL,
    "annotatorIds" TEXT NOT NULL,
    "verifierVersion" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'labelling',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CalibrationSet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CalibrationItem" (
    "id" TEXT NOT NULL,
    "setId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "rolloutId" TEXT NOT NULL,
    "stratum" TEXT NOT NULL,
    "verifierReward" DOUBLE PRECISION,
    "verifierPassed" BOOLEAN NOT NULL,
    "assigneeId" TEXT,
    "assignedAt" TIMESTAMP(3),
    "finalLabel" TEXT,
    "adjudicatedById" TEXT,
    "adjudicatedAt" TIMESTAMP(3),
    "adjudicationNote" TEXT,

    CONSTRAINT "CalibrationItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CalibrationLabel" (
    "id" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "annotatorId" TEXT NOT NULL,
    "answer" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "durationMs" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CalibrationLabel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CalibrationRescore" (
    "id" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "verifierVersion" TEXT NOT NULL,
    "reward" DOUBLE PRECISION,
    "passed" BOOLEAN,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CalibrationRescore_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SeedFilterRun" (
    "id" TEXT NOT NULL,
    "policy" TEXT NOT NULL,
    "maxPasses" INTEGER NOT NULL,
    "probeSize" INTEGER NOT NULL,
    "minTurns" DOUBLE PRECISION NOT NULL,
    "candidates" INTEGER NOT NULL,
    "kept" INTEGER NOT NULL,
    "result" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SeedFilterRun_pkey" PRIMARY KEY ("id")
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
CREATE INDEX "ValidatorRun_attemptId_idx" ON "ValidatorRun"("attemptId");

-- CreateIndex
CREATE UNIQUE INDEX "Job_dedupeKey_key" ON "Job"("dedupeKey");

-- CreateIndex
CREATE INDEX "Job_state_runAt_priority_idx" ON "Job"("state", "runAt", "priority");

-- CreateIndex
CREATE INDEX "Job_state_leaseExpiresAt_idx" ON "Job"("state", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "Job_kind_state_idx" ON "Job"("kind", "state");

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

-- CreateIndex
CREATE INDEX "SeedFilterRun_createdAt_idx" ON "SeedFilterRun"("createdAt");

-- AddForeignKey
ALTER TABLE "EnvironmentFile" ADD CONSTRAINT "EnvironmentFile_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "EnvironmentVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EnvironmentFile" ADD CONSTRAINT "EnvironmentFile_blobHash_fkey" FOREIGN KEY ("blobHash") REFERENCES "Blob"("hash") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ValidatorRun" ADD CONSTRAINT "ValidatorRun_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "EnvironmentVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ValidatorRun" ADD CONSTRAINT "ValidatorRun_attemptId_fkey" FOREIGN KEY ("attemptId") REFERENCES "Attempt"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Generation" ADD CONSTRAINT "Generation_lineageId_fkey" FOREIGN KEY ("lineageId") REFERENCES "Lineage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PlanRound" ADD CONSTRAINT "PlanRound_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Attempt" ADD CONSTRAINT "Attempt_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RubricVerdict" ADD CONSTRAINT "RubricVerdict_validatorRunId_fkey" FOREIGN KEY ("validatorRunId") REFERENCES "ValidatorRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RubricVerdict" ADD CONSTRAINT "RubricVerdict_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "RubricItem"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Account" ADD CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Review" ADD CONSTRAINT "Review_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewComment" ADD CONSTRAINT "ReviewComment_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MissedIssue" ADD CONSTRAINT "MissedIssue_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "Generation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Rollout" ADD CONSTRAINT "Rollout_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "ProbeGroup"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Rollout" ADD CONSTRAINT "Rollout_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "EnvironmentVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TrajectoryStep" ADD CONSTRAINT "TrajectoryStep_rolloutId_fkey" FOREIGN KEY ("rolloutId") REFERENCES "Rollout"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CalibrationItem" ADD CONSTRAINT "CalibrationItem_setId_fkey" FOREIGN KEY ("setId") REFERENCES "CalibrationSet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CalibrationLabel" ADD CONSTRAINT "CalibrationLabel_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "CalibrationItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CalibrationRescore" ADD CONSTRAINT "CalibrationRescore_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "CalibrationItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;
