// Brings the database schema up to date when the server starts (see instrumentation.ts).
//
// The migrator is loaded unbundled, through tsx, exactly as the CLI runs it: it
// finds prisma/migrations and the schema engine's .wasm relative to its own
// source file, which a bundled copy under .next/ could not do.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

type Migrator = typeof import('@/lib/db/migrate.ts');

export async function migrateOnStart(): Promise<void> {
  const migratorPath = path.join(/* turbopackIgnore: true */ process.cwd(), 'lib', 'db', 'migrate.ts');
  const migrator = (await tsImport(pathToFileURL(migratorPath).href, import.meta.url)) as Migrator;
  const applied = await migrator.migrateDatabase();
  if (applied.length > 0) console.log(`envolve: applied migrations ${applied.join(', ')}`);
}
