-- AlterTable
ALTER TABLE "ValidatorRun" ADD COLUMN     "sandboxRuntime" TEXT;

-- AlterTable
ALTER TABLE "Rollout" ADD COLUMN     "sandboxRuntime" TEXT;
