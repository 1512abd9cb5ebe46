// What every command needs: a migrated database and, for container work, a Docker sandbox.
import { createDb, type Db } from '../lib/db/index.ts';
import { migrateDatabase } from '../lib/db/migrations.ts';
import { DockerSandbox, dockerAvailable } from '../lib/sandbox/index.ts';

export async function openDb(): Promise<Db> {
  await migrateDatabase();
  return createDb();
}

export async function openSandbox(): Promise<DockerSandbox> {
  const sandbox = new DockerSandbox();
  await dockerAvailable(sandbox.docker);
  return sandbox;
}

// Runs a command body with a database that is closed afterwards, whatever happens.
export async function withDb<T>(body: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDb();
  try {
    return await body(db);
  } finally {
    await db.$disconnect();
  }
}
