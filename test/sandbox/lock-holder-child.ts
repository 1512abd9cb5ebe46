// Run by file-lock.test.ts as a child process: takes the lock at argv[2] with the stale period
// argv[3], says so on stdout, and holds it until it is killed (the test kills it with SIGKILL,
// a crash: no release, no more refreshes).
import { withFileLock } from '../../lib/sandbox/file-lock.ts';

const [path, staleMs] = [process.argv[2]!, Number(process.argv[3])];
await withFileLock(
  path,
  async () => {
    process.stdout.write(`locked ${process.pid}\n`);
    await new Promise(() => setInterval(() => undefined, 60_000));
  },
  { timeoutMs: 0, staleMs },
);
