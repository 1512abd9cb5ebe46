-- AlterTable
ALTER TABLE "Lineage" ADD COLUMN     "demoMode" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "minGroup" INTEGER,
ADD COLUMN     "probePolicy" TEXT,
ADD COLUMN     "releaseRate" DOUBLE PRECISION,
ADD COLUMN     "timeoutReward" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Generation" ADD COLUMN     "releaseRule" TEXT,
ADD COLUMN     "releasedByGroupId" TEXT,
ADD COLUMN     "releasedByPolicy" TEXT;

-- AlterTable
ALTER TABLE "ProbeGroup" ADD COLUMN     "gateRule" TEXT;

-- AlterTable
ALTER TABLE "CalibrationSet" ADD COLUMN     "design" TEXT NOT NULL DEFAULT 'stratified',
ADD COLUMN     "populationFail" INTEGER,
ADD COLUMN     "populationPass" INTEGER;
