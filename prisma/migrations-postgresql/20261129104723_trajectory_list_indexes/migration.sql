-- CreateIndex
CREATE INDEX "Rollout_versionId_turns_idx" ON "Rollout"("versionId", "turns");

-- CreateIndex
CREATE INDEX "Rollout_turns_createdAt_idx" ON "Rollout"("turns", "createdAt");

-- CreateIndex
CREATE INDEX "Rollout_durationMs_createdAt_idx" ON "Rollout"("durationMs", "createdAt");
