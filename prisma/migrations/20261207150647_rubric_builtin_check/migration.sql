-- AlterTable
ALTER TABLE "RubricItem" ADD COLUMN "builtinCheck" TEXT;
