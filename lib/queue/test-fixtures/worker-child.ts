// A worker process for the kill test: runs one slow handler until it is killed.
import { createDb } from '../../db/client.ts';
import { runWorker } from '../worker.ts';

const [url, workerId, leaseMs] = process.argv.slice(2);
if (!url || !workerId || !leaseMs) throw new Error('usage: worker-child.ts <database-url> <worker-id> <lease-ms>');

await runWorker({
  db: createDb(url),
  workerId,
  leaseMs: Number(leaseMs),
  pollMs: 50,
  handlers: {
    slow: async () => {
      await new Promise((resolve) => setTimeout(resolve, 10 * 60_000));
      return 'finished by the child';
    },
  },
});
