-- AlterTable
ALTER TABLE "Lineage" ADD COLUMN     "seedFunnelOverride" TEXT;
