import { databaseUrl } from './client.ts';
import { migrationNames, readMigrationList, readSchemaFile } from './migrations-dir.ts';
import { withSchemaEngine, type SchemaFile } from './schema-engine.ts';
import { appliedMigrationNames, sqliteMigrationAdapterFactory } from './sqlite.ts';

const NO_FILTERS = { externalTables: [], externalEnums: [] };

/** Applies the committed migrations that the database lacks; returns their names. */
export async function migrateDatabase(url?: string): Promise<string[]> {
  const applied = appliedMigrationNames(databaseUrl(url));
  if (migrationNames().every((name) => applied.has(name))) return [];
  const adapterFactory = sqliteMigrationAdapterFactory(databaseUrl(url));
  return withSchemaEngine(readSchemaFile(), adapterFactory, async (engine) => {
    const output = await engine.applyMigrations({ migrationsList: readMigrationList(), filters: NO_FILTERS });
    return output.appliedMigrationNames;
  });
}

/** The SQL that takes the committed migrations to `schema`, or null when they already match. */
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
