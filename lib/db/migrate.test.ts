import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDatabase } from './migrate.ts';
import { migrationNames } from './migrations-dir.ts';
import { createTestDb, type TestDb } from '../../test/fixtures/db.ts';

describe('migrateDatabase', () => {
  let testDb: TestDb | undefined;
  afterEach(() => testDb?.cleanup());

  it('applies every committed migration and records it as the Prisma CLI does', async () => {
    testDb = await createTestDb();
    const rows = await testDb.db.$queryRawUnsafe<{ migration_name: string; finished_at: unknown }[]>(
      'SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((row) => row.migration_name)).toEqual(migrationNames());
    expect(rows.every((row) => row.finished_at !== null)).toBe(true);
  });

  it('is idempotent', async () => {
    testDb = await createTestDb();
    expect(await migrateDatabase(testDb.url)).toEqual([]);
    expect(await testDb.db.job.count()).toBe(0);
  });

  it('returns at once while another connection holds the database open', async () => {
    testDb = await createTestDb();
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

  it('leaves the database in WAL mode with a busy timeout', async () => {
    testDb = await createTestDb();
    const [journal] = await testDb.db.$queryRawUnsafe<{ journal_mode: string }[]>('PRAGMA journal_mode');
    const [busy] = await testDb.db.$queryRawUnsafe<{ timeout: bigint }[]>('PRAGMA busy_timeout');
    expect(journal?.journal_mode).toBe('wal');
    expect(Number(busy?.timeout)).toBeGreaterThan(0);
  });
});
