// The dashboard at scale: `next start` on loopback over the scale database (bench/scale-seed.ts),
// signed in through better-auth's own endpoint (a session cookie) and with a trainer API token,
// loaded with autocannon. Per endpoint: p50/p95/p99 latency and requests per second, against the
// trivial route (GET /api/health) measured in the same run; the web server's peak RSS.
// Needs a build in ENVOLVE_NEXT_DIST_DIR (default .next-bench): `ENVOLVE_NEXT_DIST_DIR=.next-bench npx next build`.
//   npx tsx bench/dashboard-load.ts --file /tmp/scale.db [--seconds 10] [--connections 4] [--port 3147]
import { spawn, type ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { isMain } from './main.ts';
import { RssSampler } from './rss.ts';
import { earlierSeed, SCALE_USERS, seedScaleDatabase, type ScaleSeed } from './scale-seed.ts';

export interface EndpointLoad {
  name: string;
  path: string;
  kind: 'trivial' | 'list' | 'tree' | 'page' | 'data' | 'batch';
  connections: number;
  requests: number;
  errors: number; // non-2xx responses and socket errors
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  requestsPerSec: number;
  p95VsTrivial: number;
  failed?: string; // the endpoint did not answer 2xx before the load: not measured
}

export interface DashboardLoadResult {
  seconds: number;
  connections: number;
  batchConnections: number;
  endpoints: EndpointLoad[];
  webPeakRssMb: number;
  serverReadyMs: number;
}

// Nearest-rank percentile.
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export async function startNextServer(opts: {
  file: string;
  port: number;
  distDir: string;
  cwd?: string;
}): Promise<{ server: ChildProcess; base: string; readyMs: number }> {
  const base = `http://127.0.0.1:${opts.port}`;
  // A server left on the port (another run's) would answer for this one, over another database.
  const busy = await fetch(`${base}/api/health`).then(
    () => true,
    () => false,
  );
  if (busy) throw new Error(`port ${opts.port} is already served (a server left by an earlier run?); stop it or pass --port`);
  const started = performance.now();
  const server = spawn('npx', ['next', 'start', '-H', '127.0.0.1', '-p', String(opts.port)], {
    env: { ...process.env, DATABASE_URL: `file:${opts.file}`, ENVOLVE_NEXT_DIST_DIR: opts.distDir, BETTER_AUTH_URL: base, NODE_ENV: 'production' },
    cwd: opts.cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true, // its own process group: stopped together with next's children
  });
  for (;;) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}; is there a build in ${opts.distDir}?`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 60_000) throw new Error('next start did not answer within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { server, base, readyMs: Math.round(performance.now() - started) };
}

/** Stops the server's process group and waits until its port is free again. */
export async function stopServer(server: ChildProcess, base: string): Promise<void> {
  if (server.pid && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  for (let waited = 0; waited < 15_000; waited += 200) {
    if (
      !(await fetch(`${base}/api/health`).then(
        () => true,
        () => false,
      ))
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (server.pid) process.kill(-server.pid, 'SIGKILL');
}

export async function signInCookie(base: string, user: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (!response.ok) throw new Error(`sign-in as ${user.email} failed: ${response.status} ${await response.text()}`);
  const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]);
  if (cookies.length === 0) throw new Error('sign-in set no cookie');
  return cookies.join('; ');
}

// Fewer answers than this in the time given (an endpoint slower than the window): measure a fixed
// number of requests instead, however long they take.
const MIN_SAMPLES = 20;

async function load(
  base: string,
  path: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
): Promise<Omit<EndpointLoad, 'name' | 'kind' | 'p95VsTrivial'>> {
  const timed = await loadOnce(base, path, headers, connections, { duration: seconds });
  return timed.requests >= MIN_SAMPLES ? timed : loadOnce(base, path, headers, connections, { amount: MIN_SAMPLES, timeout: 120 });
}

async function loadOnce(
  base: string,
  path: string,
  headers: Record<string, string>,
  connections: number,
  limit: { duration: number } | { amount: number; timeout: number },
): Promise<Omit<EndpointLoad, 'name' | 'kind' | 'p95VsTrivial'>> {
  // Every response's time is kept: autocannon's own summary has no 95th percentile.
  const times: number[] = [];
  let errors = 0;
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url: `${base}${path}`, headers, connections, ...limit }, (err, done) => (err ? reject(err) : resolve(done)));
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status >= 200 && status < 300) times.push(responseTime);
      else errors += 1;
    });
  });
  errors += result.errors + result.timeouts;
  times.sort((a, b) => a - b);
  return {
    path,
    connections,
    requests: times.length,
    errors,
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    p99Ms: percentile(times, 99),
    requestsPerSec: Math.round((times.length / ((performance.now() - started) / 1000)) * 10) / 10,
  };
}

export async function measureDashboardLoad(
  seed: ScaleSeed,
  opts: { seconds: number; connections: number; batchConnections: number; port: number; distDir: string; cwd?: string; progress?: (m: string) => void },
): Promise<DashboardLoadResult> {
  const progress = opts.progress ?? (() => {});
  const { server, base, readyMs } = await startNextServer({ file: seed.file, port: opts.port, distDir: opts.distDir, cwd: opts.cwd });
  const rss = new RssSampler(server.pid!);
  try {
    const cookie = await signInCookie(base, SCALE_USERS.admin);
    const session = { cookie };
    const bearer = { authorization: `Bearer ${seed.trainerToken}` };
    const targets: { name: string; kind: EndpointLoad['kind']; path: string; headers: Record<string, string>; connections?: number }[] = [
      { name: 'trivial route (GET /api/health)', kind: 'trivial', path: '/api/health', headers: {} },
      { name: 'lineage list (first page)', kind: 'list', path: '/api/lineages', headers: session },
      {
        name: `lineage tree (${seed.generations} generations × ${seed.attempts} attempts)`,
        kind: 'tree',
        path: `/api/lineages/${seed.treeLineageId}/tree`,
        headers: session,
      },
      { name: 'generation review page (200-file residual)', kind: 'page', path: `/generations/${seed.reviewGenerationId}`, headers: session },
      { name: 'trajectory list, top reward (first page)', kind: 'list', path: '/api/trajectories?sort=reward', headers: session },
      { name: 'trajectory list, most suspicious first (first page)', kind: 'list', path: '/api/trajectories?sort=suspicious', headers: session },
      { name: `one ${seed.longTurns}-turn trajectory (page)`, kind: 'page', path: `/trajectories/${seed.longTrajectoryId}`, headers: session },
      { name: 'drift data', kind: 'data', path: '/api/drift', headers: session },
      { name: 'scheduler batch (trainer token)', kind: 'batch', path: '/api/v1/trainer/batch?size=8', headers: bearer },
      { name: 'scheduler batch, 8 connections', kind: 'batch', path: '/api/v1/trainer/batch?size=8', headers: bearer, connections: 8 },
      { name: 'trivial route, at the batch concurrency', kind: 'trivial', path: '/api/health', headers: {}, connections: opts.batchConnections },
      {
        name: 'scheduler batch, at the batch concurrency',
        kind: 'batch',
        path: '/api/v1/trainer/batch?size=8',
        headers: bearer,
        connections: opts.batchConnections,
      },
    ];
    const endpoints: EndpointLoad[] = [];
    for (const t of targets) {
      // A failing endpoint is reported as such, not loaded (its error responses would be fast).
      const check = await fetch(`${base}${t.path}`, { headers: t.headers });
      if (!check.ok) {
        const failed = `answered ${check.status}`;
        progress(`${t.name}: ${failed}; not measured`);
        endpoints.push({
          name: t.name,
          kind: t.kind,
          path: t.path,
          connections: t.connections ?? opts.connections,
          requests: 0,
          errors: 1,
          p50Ms: NaN,
          p95Ms: NaN,
          p99Ms: NaN,
          requestsPerSec: 0,
          p95VsTrivial: NaN,
          failed,
        });
        continue;
      }
      await load(base, t.path, t.headers, 2, t.connections ?? opts.connections); // warm-up (JIT, caches)
      const measured = await load(base, t.path, t.headers, opts.seconds, t.connections ?? opts.connections);
      const trivial = endpoints.find((e) => e.kind === 'trivial' && e.connections === measured.connections);
      endpoints.push({ name: t.name, kind: t.kind, ...measured, p95VsTrivial: trivial ? Math.round((measured.p95Ms / trivial.p95Ms) * 10) / 10 : 1 });
      progress(
        `${t.name}: p50 ${measured.p50Ms} ms, p95 ${measured.p95Ms} ms, p99 ${measured.p99Ms} ms, ${measured.requestsPerSec} req/s, ${measured.errors} errors`,
      );
    }
    return {
      seconds: opts.seconds,
      connections: opts.connections,
      batchConnections: opts.batchConnections,
      endpoints,
      webPeakRssMb: rss.stop(),
      serverReadyMs: readyMs,
    };
  } finally {
    rss.stop();
    await stopServer(server, base);
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      file: { type: 'string' },
      seed: { type: 'string' },
      seconds: { type: 'string', default: '10' },
      connections: { type: 'string', default: '4' },
      'batch-connections': { type: 'string', default: '16' },
      port: { type: 'string', default: '3147' },
    },
  });
  if (!values.file) throw new Error('--file PATH: the scale database (seeded first unless bench/scale-seed.ts already wrote it)');
  const seed = earlierSeed(values.file) ?? (await seedScaleDatabase(values.file));
  const result = await measureDashboardLoad(seed, {
    seconds: Number(values.seconds),
    connections: Number(values.connections),
    batchConnections: Number(values['batch-connections']),
    port: Number(values.port),
    distDir: process.env.ENVOLVE_NEXT_DIST_DIR ?? '.next-bench',
    progress: (m) => process.stderr.write(`${m}\n`),
  });
  console.log(JSON.stringify(result, null, 2));
}
