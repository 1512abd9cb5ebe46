-- CreateTable
CREATE TABLE "SignInCounter" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "points" INTEGER NOT NULL,
    "expire" DATETIME
);

-- CreateIndex
CREATE INDEX "SignInCounter_expire_idx" ON "SignInCounter"("expire");
