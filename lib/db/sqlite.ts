// Everything SQLite-specific lives here, so another provider can slot in beside it.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQuery, SqlResultSet } from '@prisma/driver-adapter-utils';
import Database from 'better-sqlite3';

// Web server, workers and CLI processes share one file: wait for a lock instead of failing.
export const BUSY_TIMEOUT_MS = 10_000;

// better-sqlite3 waits for a lock synchronously, up to BUSY_TIMEOUT_MS, inside a statement of an
// interactive transaction; Prisma's defaults (2 s to start one, 5 s to finish it) would call that
// wait a timeout and roll back. A Playwright set-up failed so: two CLI processes saving the built-in
// rubric at once, "Operation has timed out" on the second one's write.
export const SQLITE_TRANSACTION_OPTIONS = { maxWait: BUSY_TIMEOUT_MS, timeout: 3 * BUSY_TIMEOUT_MS };

function sqliteFilePath(url: string): string {
  const filePath = url.replace(/^file:/, '').replace(/\?.*$/, '');
  return path.resolve(/* turbopackIgnore: true */ process.cwd(), filePath);
}

/**
 * Resolves the file relative to process.cwd() and creates it readable by its owner only: it
 * holds live session tokens and password hashes. A directory created for it is 0700; SQLite
 * gives the -wal and -shm files the database file's own mode.
 */
function prepareSqliteUrl(url: string): string {
  const filePath = sqliteFilePath(url);
  mkdirSync(path.dirname(filePath), { recursive: true, mode: 0o700 });
  closeSync(openSync(filePath, 'a', 0o600));
  for (const file of [filePath, `${filePath}-wal`, `${filePath}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
  return `file:${filePath}`;
}

/** Creates the file's directory and switches the file to WAL before handing out the adapter. */
export function sqliteAdapterFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  const fileUrl = prepareSqliteUrl(url);
  enableWal(fileUrl);
  return new PrismaBetterSqlite3({ url: fileUrl, timeout: BUSY_TIMEOUT_MS });
}

// WAL lets readers proceed while another process writes; it is stored in the file itself.
function enableWal(url: string): void {
  const connection = new Database(sqliteFilePath(url), { timeout: BUSY_TIMEOUT_MS });
  try {
    if (connection.pragma('journal_mode', { simple: true }) !== 'wal') connection.pragma('journal_mode = WAL');
  } finally {
    connection.close();
  }
}

/**
 * Names of the migrations recorded as applied, read with a plain connection. The schema engine
 * takes an EXCLUSIVE lock on the file, which fails while any other process (web server, worker)
 * has it open, so it is started only when something is actually pending.
 */
export function appliedMigrationNames(url: string): Set<string> {
  const connection = new Database(sqliteFilePath(prepareSqliteUrl(url)), { timeout: BUSY_TIMEOUT_MS });
  try {
    const table = connection.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return new Set();
    const rows = connection.prepare('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL').all() as {
      migration_name: string;
    }[];
    return new Set(rows.map((row) => row.migration_name));
  } finally {
    connection.close();
  }
}

/** The adapter factory for the schema engine; `url` undefined gives a scratch in-memory database (for diffing). */
export function sqliteMigrationAdapterFactory(url?: string): SqlMigrationAwareDriverAdapterFactory {
  const factory = url === undefined ? new PrismaBetterSqlite3({ url: ':memory:' }) : sqliteAdapterFactory(url);
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => acceptingScripts(await factory.connect()),
    connectToShadowDb: async () => acceptingScripts(await factory.connectToShadowDb()),
  };
}

const EMPTY_RESULT_SET: SqlResultSet = { columnNames: [], columnTypes: [], rows: [] };

// The engine replays whole migration files through queryRaw/executeRaw, but better-sqlite3's prepare()
// takes one statement only; such scripts are run with executeScript instead.
function acceptingScripts(adapter: SqlDriverAdapter): SqlDriverAdapter {
  async function runOrExecuteScript<T>(query: SqlQuery, run: () => Promise<T>, scriptResult: T): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (query.args.length > 0 || !isMultiStatementError(error)) throw error;
      await adapter.executeScript(query.sql);
      return scriptResult;
    }
  }
  return new Proxy(adapter, {
    get(target, property) {
      if (property === 'queryRaw') {
        return (query: SqlQuery) => runOrExecuteScript(query, () => target.queryRaw(query), EMPTY_RESULT_SET);
      }
      if (property === 'executeRaw') {
        return (query: SqlQuery) => runOrExecuteScript(query, () => target.executeRaw(query), 0);
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function isMultiStatementError(error: unknown): boolean {
  return error instanceof RangeError && error.message.includes('more than one statement');
}
