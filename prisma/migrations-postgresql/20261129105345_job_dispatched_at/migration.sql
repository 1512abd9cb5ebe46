-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "dispatchedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Job_state_dispatchedAt_idx" ON "Job"("state", "dispatchedAt");
