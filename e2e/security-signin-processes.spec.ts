// Issue 30: the sign-in throttle's counts live in the database, so two web processes on one
// database share them, and a restarted process still knows them. Two more `envolve web` servers
// are started on the e2e database, with the default sign-in limits.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { expect, test } from '@playwright/test';
import { DEFAULT_TEST_LIMIT_MS, WEB_SERVER_START_LIMIT_MS } from './budgets.ts';
import { E2E_DATABASE_URL, REPO_ROOT } from './paths.ts';

const ACCOUNT_LIMIT = 5;
const PASSWORD = 'e2e two process password';
// `envolve web` is ready in well under a second on an idle machine; this is the Playwright web server's own start-up limit.
const START_BUDGET_MS = WEB_SERVER_START_LIMIT_MS;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function startWeb(port: number): Promise<ChildProcess> {
  // The default sign-in limits, not the ones the Playwright web server is started with.
  const { ENVOLVE_SIGNIN_MAX_ATTEMPTS_PER_ADDRESS: _raised, ...inherited } = process.env;
  const env = { ...inherited, DATABASE_URL: E2E_DATABASE_URL, HOST: '127.0.0.1', PORT: String(port) };
  const child = spawn('node', ['bin/envolve.mjs', 'web'], { cwd: REPO_ROOT, env, stdio: 'ignore' });
  const deadline = Date.now() + START_BUDGET_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`envolve web on port ${port} exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${port}/icon.svg`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGTERM');
  throw new Error(`envolve web on port ${port} was not ready within ${START_BUDGET_MS} ms`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function attempt(port: number, email: string, password: string): Promise<number> {
  const origin = `http://127.0.0.1:${port}`;
  const response = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return response.status;
}

test('two web processes on one database share the sign-in throttle, and a restart keeps it', async () => {
  // Three server starts, one after the other, and the sign-ins between them.
  test.setTimeout(3 * START_BUDGET_MS + DEFAULT_TEST_LIMIT_MS);
  const email = `two-process-${Date.now()}@e2e.envolve.test`;
  execFileSync('node', ['bin/envolve.mjs', 'users', 'create', '--email', email, '--name', 'Two Process', '--role', 'reviewer', '--password', PASSWORD], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
  });
  const [portA, portB] = [await freePort(), await freePort()];
  let a = await startWeb(portA);
  const b = await startWeb(portB);
  try {
    const statuses: number[] = [];
    // Three wrong passwords on A, two on B: five in all, the limit.
    for (const port of [portA, portA, portA, portB, portB]) statuses.push(await attempt(port, email, 'a wrong password'));
    expect(statuses).toEqual(Array(ACCOUNT_LIMIT).fill(401));
    // The sixth, on A, is refused: A counted B's attempts.
    expect(await attempt(portA, email, PASSWORD)).toBe(429);

    await stop(a);
    a = await startWeb(portA);
    expect(await attempt(portA, email, PASSWORD)).toBe(429);
    expect(await attempt(portB, email, PASSWORD)).toBe(429);
  } finally {
    await Promise.all([stop(a), stop(b)]);
  }
});
