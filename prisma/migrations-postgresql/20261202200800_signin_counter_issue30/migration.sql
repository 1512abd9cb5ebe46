-- CreateTable
CREATE TABLE "SignInCounter" (
    "key" TEXT NOT NULL,
    "points" INTEGER NOT NULL,
    "expire" TIMESTAMP(3),

    CONSTRAINT "SignInCounter_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "SignInCounter_expire_idx" ON "SignInCounter"("expire");
