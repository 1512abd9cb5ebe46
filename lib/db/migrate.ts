import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { databaseUrl } from './client.ts';
import { MIGRATIONS_DIR, migrationNames, POSTGRES_MIGRATIONS_DIR, POSTGRES_SCHEMA_PATH, readMigrationList, readSchemaFile } from './migrations-dir.ts';
import { appliedPostgresMigrationNames, postgresMigrationAdapterFactory } from './postgres.ts';
import { postgresSchemaFrom } from './postgres-schema.ts';
import { providerOf } from './provider.ts';
import { withSchemaEngine, type SchemaFile } from './schema-engine.ts';
import { appliedMigrationNames, sqliteMigrationAdapterFactory } from './sqlite.ts';

const NO_FILTERS = { externalTables: [], externalEnums: [] };

/** The schema each PostgreSQL migration leads to, kept beside its migration.sql: the base of the next diff. */
export const POSTGRES_SNAPSHOT_FILE = 'schema.prisma';

/** Applies the committed migrations (of the URL's provider) that the database lacks; returns their names. */
export async function migrateDatabase(url?: string): Promise<string[]> {
  const resolved = databaseUrl(url);
  const postgres = providerOf(resolved) === 'postgresql';
  const dir = postgres ? POSTGRES_MIGRATIONS_DIR : MIGRATIONS_DIR;
  const applied = postgres ? await appliedPostgresMigrationNames(resolved) : appliedMigrationNames(resolved);
  if (migrationNames(dir).every((name) => applied.has(name))) return [];
  const schema = postgres ? postgresSchemaFile() : readSchemaFile();
  const adapterFactory = postgres ? postgresMigrationAdapterFactory(resolved) : sqliteMigrationAdapterFactory(resolved);
  return withSchemaEngine(schema, adapterFactory, async (engine) => {
    const output = await engine.applyMigrations({ migrationsList: readMigrationList(dir), filters: NO_FILTERS });
    return output.appliedMigrationNames;
  });
}

/** The PostgreSQL schema derived from `source` (default: prisma/schema.prisma). */
export function postgresSchemaFile(source: SchemaFile = readSchemaFile()): SchemaFile {
  return { path: POSTGRES_SCHEMA_PATH, content: postgresSchemaFrom(source.content) };
}

/** The SQL that takes the committed SQLite migrations to `schema`, or null when they already match. */
export async function diffMigrationsToSchema(schema: SchemaFile): Promise<string | null> {
  return withSchemaEngine(schema, sqliteMigrationAdapterFactory(), async (engine) => {
    const { exitCode, stdout } = await engine.diff({
      from: { tag: 'migrations', ...readMigrationList() },
      to: { tag: 'schemaDatamodel', files: [schema] },
      script: true,
      // Asks the engine to report a non-empty diff as exit code 2.
      exitCode: true,
      filters: NO_FILTERS,
    });
    return exitCode === 2 ? stdout : null;
  });
}

/** The schema the newest PostgreSQL migration leads to, or null before the first one. */
export function latestPostgresSnapshot(dir = POSTGRES_MIGRATIONS_DIR): SchemaFile | null {
  const latest = migrationNames(dir).at(-1);
  if (!latest) return null;
  const snapshot = path.join(dir, latest, POSTGRES_SNAPSHOT_FILE);
  if (!existsSync(snapshot)) throw new Error(`${snapshot} is missing: every PostgreSQL migration keeps the schema it leads to`);
  return { path: POSTGRES_SCHEMA_PATH, content: readFileSync(snapshot, 'utf8') };
}

/**
 * The SQL that takes the PostgreSQL migrations to `schema` (a PostgreSQL schema), or null when they
 * already match. Diffed schema to schema from the newest migration's snapshot: the engine connects to
 * `serverUrl` (any reachable PostgreSQL) but creates no shadow database, whose introspection
 * adapter-pg 7.10 cannot read (pg's "char" type).
 */
export async function diffPostgresMigrationsToSchema(schema: SchemaFile, serverUrl: string, dir = POSTGRES_MIGRATIONS_DIR): Promise<string | null> {
  const snapshot = latestPostgresSnapshot(dir);
  return withSchemaEngine(schema, postgresMigrationAdapterFactory(serverUrl), async (engine) => {
    const { exitCode, stdout } = await engine.diff({
      from: snapshot ? { tag: 'schemaDatamodel', files: [snapshot] } : { tag: 'empty' },
      to: { tag: 'schemaDatamodel', files: [schema] },
      script: true,
      exitCode: true,
      filters: NO_FILTERS,
    });
    return exitCode === 2 ? stdout : null;
  });
}
