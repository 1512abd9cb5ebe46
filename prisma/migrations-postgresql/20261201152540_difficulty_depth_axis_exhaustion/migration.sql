-- AlterTable
ALTER TABLE "EnvironmentVersion" ADD COLUMN     "difficultyDepth" INTEGER;

-- AlterTable
ALTER TABLE "Lineage" ADD COLUMN     "exhaustedAxes" TEXT NOT NULL DEFAULT '{}';
