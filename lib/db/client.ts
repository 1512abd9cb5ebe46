import { PrismaClient } from './generated/client.ts';
import { PrismaClient as PostgresPrismaClient } from './generated-pg/client.ts';
import { postgresAdapterFactory } from './postgres.ts';
import { providerOf } from './provider.ts';
import { sqliteAdapterFactory, SQLITE_TRANSACTION_OPTIONS } from './sqlite.ts';
import { settings } from '../config/index.ts';

// The app sees one client type. Both clients are generated from the same source schema
// (prisma/postgresql/schema.prisma is derived from prisma/schema.prisma), so their model APIs are
// identical; they are two classes only because a client refuses the other provider's adapter.
export type Db = PrismaClient;

export function databaseUrl(url?: string): string {
  return url ?? settings().databaseUrl;
}

export function createDb(url?: string): Db {
  const resolved = databaseUrl(url);
  if (providerOf(resolved) === 'postgresql') {
    return new PostgresPrismaClient({ adapter: postgresAdapterFactory(resolved) }) as unknown as Db;
  }
  return new PrismaClient({ adapter: sqliteAdapterFactory(resolved), transactionOptions: SQLITE_TRANSACTION_OPTIONS });
}
