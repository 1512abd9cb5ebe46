// Everything PostgreSQL-specific lives here, beside sqlite.ts.
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { settings } from '../config/index.ts';

/** The server the PostgreSQL half of the tests (and `npm run db:diff`) uses; scripts/prereqs.sh postgres creates it. */
export const testPostgresUrl = (): string => settings().test.postgresUrl;

// Per process; a worker runs a few jobs at once, each needing a connection now and then.
const POOL_SIZE = 10;

export function postgresAdapterFactory(url: string): PrismaPg {
  return new PrismaPg({ connectionString: url, max: POOL_SIZE });
}

/** Runs `use` with one plain connection, closed afterwards. */
export async function withPgClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Names of the migrations recorded as applied (see sqlite.ts: the engine starts only when some are pending). */
export async function appliedPostgresMigrationNames(url: string): Promise<Set<string>> {
  return withPgClient(url, async (client) => {
    const { rows: tables } = await client.query<{ name: string | null }>("SELECT to_regclass('_prisma_migrations')::text AS name");
    if (!tables[0]?.name) return new Set<string>();
    const { rows } = await client.query<{ migration_name: string }>(
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    return new Set(rows.map((row) => row.migration_name));
  });
}

/**
 * The adapter factory for the schema engine. adapter-pg's executeScript splits a script on every ';',
 * which breaks on a ';' inside a string literal; the simple query protocol runs a whole script as is.
 */
export function postgresMigrationAdapterFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  const factory = postgresAdapterFactory(url);
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => wholeScripts(await factory.connect()),
    connectToShadowDb: async () => wholeScripts(await factory.connectToShadowDb()),
  };
}

// What adapter-pg's connect() returns beyond the interface: the pool it queries through.
type PgDriverAdapter = SqlDriverAdapter & { underlyingDriver(): pg.Pool };

function wholeScripts(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const pool = (adapter as PgDriverAdapter).underlyingDriver();
  return new Proxy(adapter, {
    get(target, property) {
      if (property === 'executeScript') return async (script: string) => void (await pool.query(script));
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
