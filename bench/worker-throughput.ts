// Validations per minute with 1, 2 and 4 `envolve worker` processes on PostgreSQL (pg-boss), on this
// machine's Docker engine. Each run: a fresh database, the example tasks imported, a burst of
// validation jobs, K worker processes (concurrency 2 each) started together; the clock runs from the
// first worker start to the last job settled. Median of RUNS runs per K.
//   npx tsx bench/worker-throughput.ts [--jobs 12] [--runs 3]
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createTestDb } from '../test/fixtures/db.ts';
import { importPath } from '../lib/env/index.ts';
import { enqueue } from '../lib/queue/index.ts';
import { VALIDATE_JOB } from '../lib/validate/index.ts';

process.env.ENVOLVE_TEST_DATABASE = 'postgresql';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const JOBS = arg('jobs', 12);
const RUNS = arg('runs', 3);
const WORKER_COUNTS = [1, 2, 4];

async function oneRun(workers: number): Promise<number> {
  const testDb = await createTestDb();
  const children: ChildProcess[] = [];
  try {
    const imported = await importPath(testDb.db, `${ROOT}/examples/tasks`);
    const versions = imported.filter((task) => task.ok && task.versionId).map((task) => task.versionId!);
    if (versions.length === 0) throw new Error('no example task imported');
    for (let n = 0; n < JOBS; n++)
      await enqueue(testDb.db, VALIDATE_JOB, { versionId: versions[n % versions.length], baseImages: { images: {}, unmatchedToBase: true } }, { priority: 10 });
    const started = Date.now();
    for (let k = 0; k < workers; k++) {
      children.push(
        spawn(process.execPath, [`${ROOT}/bin/envolve.mjs`, 'worker', '--concurrency', '2'], {
          env: { ...process.env, DATABASE_URL: testDb.url },
          stdio: 'ignore',
        }),
      );
    }
    for (;;) {
      const open = await testDb.db.job.count({ where: { state: { in: ['queued', 'running'] } } });
      if (open === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const minutes = (Date.now() - started) / 60_000;
    const dead = await testDb.db.job.count({ where: { state: 'dead' } });
    if (dead > 0) throw new Error(`${dead} validation job(s) died; the bench measures successful runs only`);
    return JOBS / minutes;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
    await testDb.cleanup();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const results: Record<string, { runs: number[]; median: number }> = {};
for (const workers of WORKER_COUNTS) {
  const runs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    runs.push(await oneRun(workers));
    console.error(`workers=${workers} run ${r + 1}/${RUNS}: ${runs.at(-1)!.toFixed(1)} validations/min`);
  }
  results[workers] = { runs, median: median(runs) };
  console.log(`${workers} worker process(es): median ${median(runs).toFixed(1)} validations/min (${runs.map((v) => v.toFixed(1)).join(', ')})`);
}
mkdirSync(`${ROOT}/bench/results`, { recursive: true });
writeFileSync(
  `${ROOT}/bench/results/worker-throughput.json`,
  `${JSON.stringify({ jobs: JOBS, runs: RUNS, cpus: os.cpus().length, concurrencyPerWorker: 2, results }, null, 2)}\n`,
);
