// A cross-process lock on one machine: whoever creates the lock file (O_EXCL)
// holds it. The file records the holder's pid so a lock left by a crashed
// process is recognised and taken over instead of blocking forever.
import { open, readFile, rm } from 'node:fs/promises';

const POLL_MS = 500;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function tryAcquire(path: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx');
    await handle.writeFile(String(process.pid));
    await handle.close();
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
    // An empty file means the holder is between open() and write(); wait.
    if (Number.isInteger(holder) && holder > 0 && !processAlive(holder)) {
      await rm(path, { force: true });
    }
    return false;
  }
}

export async function withFileLock<T>(path: string, fn: () => Promise<T>, opts: { timeoutMs: number; onWait?: () => void }): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  let announced = false;
  while (!(await tryAcquire(path))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${opts.timeoutMs} ms waiting for lock ${path}`);
    if (!announced) opts.onWait?.();
    announced = true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    return await fn();
  } finally {
    await rm(path, { force: true });
  }
}
