// The schema's tooling entry of lib/db: migrations and schema diffs, for
// the CLI, the benchmarks and scripts/. Apart from index.ts because the web app never migrates and
// its bundler cannot follow the migration folders these files locate (README, Layers).
export { migrateDatabase, diffMigrationsToSchema, diffPostgresMigrationsToSchema, POSTGRES_SNAPSHOT_FILE, postgresSchemaFile } from './migrate.ts';
export { MIGRATIONS_DIR, POSTGRES_MIGRATIONS_DIR, POSTGRES_SCHEMA_PATH, readSchemaFile, SCHEMA_PATH } from './migrations-dir.ts';
export { testPostgresUrl } from './postgres.ts';
export { postgresSchemaFrom } from './postgres-schema.ts';
