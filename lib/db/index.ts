// The database: the Prisma client (SQLite or PostgreSQL), its types, migrations and test databases.
// The public API of lib/db: other modules import it from here, never from its files (README, Layers).
export { type Db, databaseUrl, createDb } from './client.ts';
export { idsWithNameContaining, likeContains } from './name-search.ts';
export {
  Prisma,
  PrismaClient,
  type Generation,
  type Lineage,
  type ValidatorRun,
  type ProbeGroup,
  type MissedIssue,
  type RubricItem,
  type BacktestFinding,
  type Job,
  type Rollout,
  type TrajectoryStep,
  type RubricVerdict,
} from './generated/client.ts';
export { providerOf } from './provider.ts';
export { migrateDatabase, diffMigrationsToSchema, diffPostgresMigrationsToSchema, POSTGRES_SNAPSHOT_FILE, postgresSchemaFile } from './migrate.ts';
export { createTestDb } from './test-db.ts';
export { MIGRATIONS_DIR, POSTGRES_MIGRATIONS_DIR, POSTGRES_SCHEMA_PATH, readSchemaFile, SCHEMA_PATH } from './migrations-dir.ts';
export { testPostgresUrl } from './postgres.ts';
export { postgresSchemaFrom } from './postgres-schema.ts';
