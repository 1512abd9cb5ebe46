import { databaseUrl, type Db, providerOf } from '../db/index.ts';
import type { BackoffPolicy } from './backoff.ts';
import { embeddedQueue, type QueueBackend } from './backend.ts';
import { PgBossQueue } from './pg-boss-queue.ts';

/** The queue for the configured database: pg-boss on PostgreSQL, the embedded queue on SQLite. */
export async function openQueue(
  db: Db,
  options: { url?: string; backoff?: BackoffPolicy; logError?: (message: string, error: unknown) => void } = {},
): Promise<QueueBackend> {
  const url = databaseUrl(options.url);
  if (providerOf(url) === 'postgresql') return PgBossQueue.start({ db, url, backoff: options.backoff, logError: options.logError });
  return embeddedQueue(db);
}
