// The cross-process build lock (lib/sandbox/file-lock.ts): contenders take turns, and a lock whose
// holder crashed is taken over once it has gone a stale period without a refresh.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withFileLock } from '../../lib/sandbox/file-lock.ts';
import { limitMs } from '../budgets.ts';

const dir = mkdtempSync(join(tmpdir(), 'envolve-file-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// proper-lockfile's smallest stale period; the holder refreshes every half of it.
const STALE_MS = 2_000;
// The contender waits out at most a few stale periods (it polls, the dead lock ages).
const WAIT_MS = 10 * STALE_MS;

describe('withFileLock', () => {
  it('lets two contenders in one at a time, the second once the first has left', async () => {
    const path = join(dir, 'serial.lock');
    const events: string[] = [];
    let secondWaiting!: () => void;
    const secondIsWaiting = new Promise<void>((resolve) => (secondWaiting = resolve));
    let second: Promise<string> | undefined;
    const first = withFileLock(
      path,
      async () => {
        events.push('first in');
        second = withFileLock(
          path,
          async () => {
            events.push('second in');
            return 'second';
          },
          {
            timeoutMs: WAIT_MS,
            onWait: () => {
              events.push('second waits');
              secondWaiting();
            },
          },
        );
        await secondIsWaiting;
        events.push('first out');
        return 'first';
      },
      { timeoutMs: WAIT_MS },
    );
    expect(await first).toBe('first');
    expect(await second).toBe('second');
    expect(events).toEqual(['first in', 'second waits', 'first out', 'second in']);
  });

  it('releases the lock when the holder throws', async () => {
    const path = join(dir, 'throws.lock');
    await expect(withFileLock(path, () => Promise.reject(new Error('build failed')), { timeoutMs: WAIT_MS })).rejects.toThrow('build failed');
    let waited = false;
    expect(await withFileLock(path, async () => 'next', { timeoutMs: WAIT_MS, onWait: () => (waited = true) })).toBe('next');
    expect(waited).toBe(false);
  });

  // Waiting two stale periods: a holder that did not refresh would have lost the lock by then.
  it('gives up after its wait bound while a live holder keeps the lock fresh', { timeout: limitMs(2 * STALE_MS) }, async () => {
    const path = join(dir, 'held.lock');
    await withFileLock(
      path,
      async () => {
        await expect(withFileLock(path, async () => 'never', { timeoutMs: 2 * STALE_MS, staleMs: STALE_MS })).rejects.toThrow(
          /timed out after 4000 ms waiting for lock/,
        );
      },
      { timeoutMs: WAIT_MS, staleMs: STALE_MS },
    );
  });

  it('takes over the lock of a holder that crashed, once it has gone stale', { timeout: limitMs(WAIT_MS) }, async () => {
    const path = join(dir, 'crashed.lock');
    const holder = spawn(process.execPath, ['--import', 'tsx', 'test/sandbox/lock-holder-child.ts', path, String(STALE_MS)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    holder.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let stdout = '';
    for await (const chunk of holder.stdout!) {
      stdout += (chunk as Buffer).toString();
      if (stdout.includes('\n')) break;
    }
    expect(stdout, stderr).toMatch(/^locked \d+\n/);
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    let waited = false;
    const result = await withFileLock(path, async () => 'taken over', { timeoutMs: WAIT_MS, staleMs: STALE_MS, onWait: () => (waited = true) });
    expect(result).toBe('taken over');
    expect(waited).toBe(true);
  });
});
