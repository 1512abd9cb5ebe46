-- CreateTable
CREATE TABLE "ReferencePriors" (
    "version" TEXT NOT NULL PRIMARY KEY,
    "table" TEXT NOT NULL,
    "provenance" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
