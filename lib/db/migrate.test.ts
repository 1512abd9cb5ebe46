import Database from 'better-sqlite3';
import { describe, expect } from 'vitest';
import { migrateDatabase } from './migrate.ts';
import { migrationNames } from './migrations-dir.ts';
import { dbTest } from '../../test/fixtures/test.ts';

describe('migrateDatabase', () => {
  dbTest('applies every committed migration and records it as the Prisma CLI does', async ({ db }) => {
    const rows = await db.$queryRawUnsafe<{ migration_name: string; finished_at: unknown }[]>(
      'SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((row) => row.migration_name)).toEqual(migrationNames());
    expect(rows.every((row) => row.finished_at !== null)).toBe(true);
  });

  dbTest('is idempotent', async ({ testDb, db }) => {
    expect(await migrateDatabase(testDb.url)).toEqual([]);
    expect(await db.job.count()).toBe(0);
  });

  dbTest('returns at once while another connection holds the database open', async ({ testDb }) => {
    // A reader in the middle of a transaction, as the web server or a worker may be; the schema
    // engine's exclusive lock would wait on it and fail, so an up-to-date database must not start it.
    const reader = new Database(testDb.url.replace(/^file:/, ''));
    try {
      reader.prepare('BEGIN').run();
      reader.prepare('SELECT count(*) FROM Job').get();
      expect(await migrateDatabase(testDb.url)).toEqual([]);
    } finally {
      reader.close();
    }
  });

  dbTest('leaves the database in WAL mode with a busy timeout', async ({ db }) => {
    const [journal] = await db.$queryRawUnsafe<{ journal_mode: string }[]>('PRAGMA journal_mode');
    const [busy] = await db.$queryRawUnsafe<{ timeout: bigint }[]>('PRAGMA busy_timeout');
    expect(journal?.journal_mode).toBe('wal');
    expect(Number(busy?.timeout)).toBeGreaterThan(0);
  });
});
