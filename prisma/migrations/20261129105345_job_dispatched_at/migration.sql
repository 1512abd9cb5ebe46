-- AlterTable
ALTER TABLE "Job" ADD COLUMN "dispatchedAt" DATETIME;

-- CreateIndex
CREATE INDEX "Job_state_dispatchedAt_idx" ON "Job"("state", "dispatchedAt");
