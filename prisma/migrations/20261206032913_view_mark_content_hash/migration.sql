-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_FileViewMark" (
    "userId" TEXT NOT NULL,
    "generationId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "contentSha256" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("userId", "generationId", "path")
);
INSERT INTO "new_FileViewMark" ("createdAt", "generationId", "path", "userId") SELECT "createdAt", "generationId", "path", "userId" FROM "FileViewMark";
DROP TABLE "FileViewMark";
ALTER TABLE "new_FileViewMark" RENAME TO "FileViewMark";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
