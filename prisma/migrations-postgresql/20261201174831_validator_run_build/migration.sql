-- AlterTable
ALTER TABLE "ValidatorRun" ADD COLUMN     "build" TEXT;
