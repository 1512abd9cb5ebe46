-- CreateTable
CREATE TABLE "ReferencePriors" (
    "version" TEXT NOT NULL,
    "table" TEXT NOT NULL,
    "provenance" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReferencePriors_pkey" PRIMARY KEY ("version")
);
