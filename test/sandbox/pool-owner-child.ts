// Run by lifecycle.test.ts as a child process: a worker in miniature. It fills a warm pool, holds
// one trial container as in-flight work, prints what it owns, and stops like `envolve worker`
// (stopOnSignals, then drainAllWarmPools).
import Docker from 'dockerode';
import { hostConfigFor, resolveLimits } from '../../lib/sandbox/resource-limits.ts';
import { drainAllWarmPools, warmPoolFor } from '../../lib/sandbox/warm-pool.ts';
import { stopOnSignals } from '../../workers/stop-signals.ts';

const imageId = process.argv[2]!;
const docker = new Docker();
const pool = warmPoolFor(docker, 2);
const options: Docker.ContainerCreateOptions = {
  Image: imageId,
  Entrypoint: ['sleep'],
  Cmd: ['infinity'],
  User: '0',
  NetworkDisabled: true,
  Labels: { 'envolve.managed': '1', 'envolve.task': 'lifecycle-test' },
  HostConfig: hostConfigFor(resolveLimits(), 'runc'),
};
const take = () => pool.take({ options, labels: {}, budgetSec: 600 });

for (let i = 0; i < 3; i++) pool.retire((await take()).container);
const inFlight = await take();
await pool.whenFilled();
// The first three containers' removals run in the background; what is left is the pool and the trial.
while (pool.stats().pendingRemovals > 0) await new Promise((resolve) => setTimeout(resolve, 50));
const stopped = new Promise<void>((resolve) => stopOnSignals(resolve, (m) => process.stderr.write(`${m}\n`)));
// A signal handler alone does not keep a process alive; a worker's queue loop does, this timer here.
const keepAlive = setInterval(() => undefined, 60_000);
process.stdout.write(`${JSON.stringify({ owner: pool.owner, poolId: pool.id, ready: pool.stats().ready })}\n`);
await stopped;
clearInterval(keepAlive);
pool.retire(inFlight.container); // the in-flight trial ends and hands its container back
await drainAllWarmPools();
