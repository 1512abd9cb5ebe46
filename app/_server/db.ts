// The web server's one database client. Dev mode re-evaluates modules on every
// edit; keeping the client on globalThis stops each reload from opening another.
import { connection } from 'next/server';
import { createDb, type Db } from '@/lib/db/index.ts';

const holder = globalThis as typeof globalThis & { envolveDb?: Db };

function sharedDb(): Db {
  holder.envolveDb ??= createDb();
  return holder.envolveDb;
}

/**
 * The database client for rendering a request. Waiting for the request first
 * keeps `next build` from prerendering pages out of whatever database the build
 * machine happens to have.
 */
export async function requestDb(): Promise<Db> {
  await connection();
  return sharedDb();
}
