// `npm run db:diff -- <name>`: writes the SQL that takes the committed migrations to prisma/schema.prisma
// as a new prisma/migrations/<timestamp>_<name>/migration.sql.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_DIR, readSchemaFile } from '../lib/db/migrations-dir.ts';
import { diffMigrationsToSchema } from '../lib/db/migrate.ts';

function migrationTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

function migrationDirName(name: string, date: Date): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  if (!slug) throw new Error('usage: npm run db:diff -- <migration-name>');
  return `${migrationTimestamp(date)}_${slug}`;
}

async function main(): Promise<void> {
  const dirName = migrationDirName(process.argv[2] ?? '', new Date());
  const sql = await diffMigrationsToSchema(readSchemaFile());
  if (sql === null) {
    console.log('Schema unchanged: prisma/schema.prisma matches the migrations; nothing written.');
    return;
  }
  const dir = path.join(MIGRATIONS_DIR, dirName);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'migration.sql'), sql);
  console.log(`Wrote ${path.relative(process.cwd(), path.join(dir, 'migration.sql'))}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
