import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MigrationList } from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { SchemaFile } from './schema-engine.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));
export const SCHEMA_PATH = fileURLToPath(new URL('../../prisma/schema.prisma', import.meta.url));
// Generated from SCHEMA_PATH (postgres-schema.ts); its migrations live in their own folder.
export const POSTGRES_SCHEMA_PATH = fileURLToPath(new URL('../../prisma/postgresql/schema.prisma', import.meta.url));
export const POSTGRES_MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations-postgresql', import.meta.url));

const LOCKFILE = 'migration_lock.toml';
const MIGRATION_FILE = 'migration.sql';

export function readSchemaFile(schemaPath = SCHEMA_PATH): SchemaFile {
  return { path: schemaPath, content: readFileSync(schemaPath, 'utf8') };
}

export function migrationNames(baseDir = MIGRATIONS_DIR): string[] {
  if (!existsSync(baseDir)) return [];
  return readdirSync(baseDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(baseDir, entry.name, MIGRATION_FILE)))
    .map((entry) => entry.name)
    .sort();
}

/** The migrations folder in the shape the schema engine expects (it does no file I/O itself). */
export function readMigrationList(baseDir = MIGRATIONS_DIR): MigrationList {
  const lockfilePath = path.join(baseDir, LOCKFILE);
  return {
    baseDir,
    lockfile: {
      path: LOCKFILE,
      content: existsSync(lockfilePath) ? readFileSync(lockfilePath, 'utf8') : null,
    },
    shadowDbInitScript: '',
    migrationDirectories: migrationNames(baseDir).map((name) => ({
      path: name,
      migrationFile: {
        path: MIGRATION_FILE,
        content: { tag: 'ok', value: readFileSync(path.join(baseDir, name, MIGRATION_FILE), 'utf8') },
      },
    })),
  };
}
