// `envolve worker`: a worker process that runs until SIGINT/SIGTERM, finishing in-flight jobs.
// Any number may run at once, on any machine that reaches the database; each runs its sandboxes on
// the local engine (DOCKER_HOST) or on the pool of Docker hosts given with --docker-host.
import type { Command } from 'commander';
import { DockerHostPool, parseDockerHost, type Sandbox, drainAllWarmPools, removeOwnContainers } from '../../lib/sandbox/index.ts';
import { openDb, openSandbox } from '../context.ts';
import { fail, progress } from '../output.ts';
import { runWorkerProcess } from '../../workers/worker-process.ts';
import { stopOnSignals } from '../../workers/stop-signals.ts';
import { settings } from '../../lib/config/index.ts';
import { logger } from '../../lib/log/index.ts';

async function openHostPool(hosts: string[]): Promise<DockerHostPool> {
  const pool = new DockerHostPool(hosts.map(parseDockerHost), progress);
  await pool.checkHealth();
  const down = pool.hosts.filter((host) => !host.healthy);
  if (down.length === pool.hosts.length) throw new Error(`no --docker-host answers: ${down.map((h) => `${h.spec.url} (${h.lastError})`).join('; ')}`);
  for (const host of down) progress(`docker host ${host.spec.url} does not answer (${host.lastError}); drained until it does`);
  pool.startHealthChecks();
  return pool;
}

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('claim and run jobs from the queue until stopped')
    .option('--concurrency <n>', 'jobs run at once', String(settings().worker.concurrency))
    .option(
      '--docker-host <url[#limit]>',
      'a Docker host for sandboxes (socket path, unix://, tcp://, ssh://), with its own concurrency limit after # (default 2); repeat for a pool',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .action(async (opts: { concurrency: string; dockerHost: string[] }) => {
      const concurrency = Number.parseInt(opts.concurrency, 10);
      if (!Number.isInteger(concurrency) || concurrency < 1) fail({}, `--concurrency must be a positive integer, not '${opts.concurrency}'`);
      try {
        opts.dockerHost.forEach(parseDockerHost);
      } catch (err) {
        fail({}, err);
      }
      const { leaseMs, reapIntervalMs } = settings().worker;
      const stop = new AbortController();
      const stopListening = stopOnSignals(() => stop.abort(), progress);
      let pool: DockerHostPool | undefined;
      let failure: unknown;
      try {
        const db = await openDb();
        pool = opts.dockerHost.length > 0 ? await openHostPool(opts.dockerHost) : undefined;
        const sandbox: Sandbox = pool ?? (await openSandbox());
        await runWorkerProcess({ db, sandbox, concurrency, signal: stop.signal, log: logger(), leaseMs, reapIntervalMs });
        await db.$disconnect();
      } catch (err) {
        failure = err;
      }
      // Whatever ended the worker, its warm pools and every container it made go with it.
      pool?.close();
      await drainAllWarmPools();
      await removeOwnContainers();
      stopListening();
      if (failure !== undefined) fail({}, failure);
    });
}
