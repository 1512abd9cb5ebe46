-- AlterTable
ALTER TABLE "Lineage" ADD COLUMN "priorsVersion" TEXT;
