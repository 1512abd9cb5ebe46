-- AlterTable
ALTER TABLE "EnvironmentProfile" ADD COLUMN "phaseP50Ms" TEXT;

-- AlterTable
ALTER TABLE "Rollout" ADD COLUMN "phaseMs" TEXT;
ALTER TABLE "Rollout" ADD COLUMN "sandboxRuntime" TEXT;

-- AlterTable
ALTER TABLE "ValidatorRun" ADD COLUMN "sandboxRuntime" TEXT;
