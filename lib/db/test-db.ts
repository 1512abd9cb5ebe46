import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb, type Db } from './client.ts';
import { migrateDatabase } from './migrate.ts';
import { migrationNames, POSTGRES_MIGRATIONS_DIR } from './migrations-dir.ts';
import { testPostgresUrl, withPgClient } from './postgres.ts';
import type { Provider } from './provider.ts';
import { settings } from '../config/index.ts';
import { logger } from '../log/index.ts';

export interface TestDb {
  db: Db;
  url: string;
  provider: Provider;
  cleanup: () => Promise<void>;
}

/**
 * The database the DB-level tests run against: SQLite unless ENVOLVE_TEST_DATABASE=postgresql,
 * which scripts/test.sh sets for its second run of the DB-heavy test files.
 */
export function testProvider(): Provider {
  return settings().test.database;
}

/** A fresh, migrated database of the selected provider, dropped by cleanup. */
export async function createTestDb(): Promise<TestDb> {
  return testProvider() === 'postgresql' ? createPostgresTestDb() : createSqliteTestDb();
}

async function createSqliteTestDb(): Promise<TestDb> {
  const dir = mkdtempSync(path.join(tmpdir(), 'envolve-test-db-'));
  const url = `file:${path.join(dir, 'test.db')}`;
  await migrateDatabase(url);
  const db = createDb(url);
  return {
    db,
    url,
    provider: 'sqlite',
    cleanup: async () => {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Migrating takes seconds; copying a migrated template database takes milliseconds. The template's
// name carries a hash of the migrations, so a changed migration gets a new template.
function templateName(): string {
  const hash = createHash('sha256');
  for (const name of migrationNames(POSTGRES_MIGRATIONS_DIR)) {
    hash.update(name).update(readFileSync(path.join(POSTGRES_MIGRATIONS_DIR, name, 'migration.sql')));
  }
  return `envolve_template_${hash.digest('hex').slice(0, 16)}`;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

// Any number of test processes may start at once; the advisory lock lets one build the template.
const TEMPLATE_LOCK = 7_263_001;

async function ensureTemplate(): Promise<string> {
  const template = templateName();
  await withPgClient(testPostgresUrl(), async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
      if (rowCount) return;
      const building = `${template}_building`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}"`);
      await admin.query(`CREATE DATABASE "${building}"`);
      await migrateDatabase(withDatabase(testPostgresUrl(), building));
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  return template;
}

// FORCE cannot end a backend of another role (an autovacuum worker that just started on the copy):
// try again shortly; a throwaway database left behind is reported, never a failed test.
async function dropTestDatabase(database: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await withPgClient(testPostgresUrl(), (admin) => admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
      return;
    } catch (err) {
      if (attempt >= 10) {
        logger().warn('test database left behind', { database, err });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
}

async function createPostgresTestDb(): Promise<TestDb> {
  const template = await ensureTemplate();
  const database = `envolve_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  await withPgClient(testPostgresUrl(), (admin) => admin.query(`CREATE DATABASE "${database}" TEMPLATE "${template}"`));
  const url = withDatabase(testPostgresUrl(), database);
  const db = createDb(url);
  return {
    db,
    url,
    provider: 'postgresql',
    cleanup: async () => {
      await db.$disconnect();
      await dropTestDatabase(database);
    },
  };
}
