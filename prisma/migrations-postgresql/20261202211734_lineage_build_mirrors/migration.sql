-- AlterTable
ALTER TABLE "Lineage" ADD COLUMN     "buildMirrors" TEXT;
