// `envolve worker`: a worker process that runs until SIGINT/SIGTERM, finishing in-flight jobs.
import type { Command } from 'commander';
import { openDb, openSandbox } from '../context.ts';
import { fail, progress } from '../output.ts';
import { runWorkerProcess } from '../worker.ts';

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('claim and run jobs from the queue until stopped')
    .option('--concurrency <n>', 'jobs run at once', process.env.ENVOLVE_WORKER_CONCURRENCY ?? '2')
    .action(async (opts: { concurrency: string }) => {
      const concurrency = Number.parseInt(opts.concurrency, 10);
      if (!Number.isInteger(concurrency) || concurrency < 1) fail({}, `--concurrency must be a positive integer, not '${opts.concurrency}'`);
      const stop = new AbortController();
      const onSignal = () => {
        progress('stopping: finishing in-flight jobs (send again to force)');
        process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
        stop.abort();
      };
      process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
      try {
        const db = await openDb();
        await runWorkerProcess({ db, sandbox: await openSandbox(), concurrency, signal: stop.signal, log: progress });
        await db.$disconnect();
      } catch (err) {
        fail({}, err);
      }
    });
}
