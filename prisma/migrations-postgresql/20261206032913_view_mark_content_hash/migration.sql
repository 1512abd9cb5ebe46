-- AlterTable
ALTER TABLE "FileViewMark" ADD COLUMN     "contentSha256" TEXT NOT NULL DEFAULT '';
