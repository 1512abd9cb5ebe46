// `npm run db:generate`: writes the PostgreSQL copy of prisma/schema.prisma, then generates both clients
// (lib/db/generated for SQLite, lib/db/generated-pg for PostgreSQL). Generation needs no schema engine.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
// This script makes the generated Prisma clients that lib/db's entry points import, so it reads the two
// schema files directly: through an entry it would load the client it is about to generate.
/* eslint-disable no-restricted-imports */
import { POSTGRES_SCHEMA_PATH, readSchemaFile, SCHEMA_PATH } from '../lib/db/migrations-dir.ts';
import { postgresSchemaFrom } from '../lib/db/postgres-schema.ts';
/* eslint-enable no-restricted-imports */

writeFileSync(POSTGRES_SCHEMA_PATH, postgresSchemaFrom(readSchemaFile().content));
for (const schema of [SCHEMA_PATH, POSTGRES_SCHEMA_PATH]) {
  console.error(`prisma generate --schema ${path.relative(process.cwd(), schema)}`);
  const run = spawnSync('npx', ['prisma', 'generate', '--schema', schema], {
    stdio: 'inherit',
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false' },
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
