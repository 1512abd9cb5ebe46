import { defineConfig } from 'prisma/config';

// Prisma's CLI is used only for `generate`; migrations are applied offline by lib/db/migrate.ts.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
