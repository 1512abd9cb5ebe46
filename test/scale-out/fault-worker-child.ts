// A worker process for the PostgreSQL fault test: pg-boss queue, one job kind that takes a while and
// appends each run to a log file (so the test can count runs, not only settled rows).
import { appendFileSync } from 'node:fs';
import { createDb } from '../../lib/db/client.ts';
import { PgBossQueue } from '../../lib/queue/pg-boss-queue.ts';
import { runWorker } from '../../lib/queue/run-worker.ts';

const [url, workerId, leaseMs, runLog, jobMs, backoffMs] = process.argv.slice(2);
if (!url || !workerId || !leaseMs || !runLog || !jobMs || !backoffMs) {
  throw new Error('usage: fault-worker-child.ts <database-url> <worker-id> <lease-ms> <run-log> <job-ms> <backoff-ms>');
}

const db = createDb(url);
const queue = await PgBossQueue.start({ db, url, backoff: { baseMs: Number(backoffMs), maxMs: Number(backoffMs) }, logError: () => {} });
await runWorker({
  db,
  queue,
  workerId,
  leaseMs: Number(leaseMs),
  pollMs: 50,
  concurrency: 2,
  logError: (message, error) => console.error(`[${workerId}] ${message}`, error instanceof Error ? error.message : error),
  handlers: {
    work: async ({ n }: { n: number }) => {
      appendFileSync(runLog, `${n} ${workerId}\n`);
      await new Promise((resolve) => setTimeout(resolve, Number(jobMs)));
      return { n, by: workerId };
    },
  },
});
