import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb, type Db } from './client.ts';
import { migrateDatabase } from './migrate.ts';

export interface TestDb {
  db: Db;
  url: string;
  cleanup: () => Promise<void>;
}

/** A fresh, migrated SQLite database in its own temp directory. */
export async function createTestDb(): Promise<TestDb> {
  const dir = mkdtempSync(path.join(tmpdir(), 'envolve-test-db-'));
  const url = `file:${path.join(dir, 'test.db')}`;
  await migrateDatabase(url);
  const db = createDb(url);
  return {
    db,
    url,
    cleanup: async () => {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
