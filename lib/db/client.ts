import { PrismaClient } from './generated/client.ts';
import { DEFAULT_DATABASE_URL, sqliteAdapterFactory } from './sqlite.ts';

export type Db = PrismaClient;

export function databaseUrl(url?: string): string {
  return url ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
}

export function createDb(url?: string): Db {
  return new PrismaClient({ adapter: sqliteAdapterFactory(databaseUrl(url)) });
}
