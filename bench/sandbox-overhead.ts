// Sandbox overhead: one oracle validation of a small task through Envolve against a plain
// `docker run --rm --network none IMAGE sh -c '<solve>; <test>'` of the same image, measured
// interleaved in the same run; where the trial's time goes (its phase laps); and sustained
// throughput (validations per minute with the warm pool saturated) against the daemon's own
// create + start + remove rate at the same concurrency. Under one runtime (runc or runsc) for
// all of it, baselines included: gVisor's cost shows as the ratio of two such runs.
//   npx tsx bench/sandbox-overhead.ts [--runtime runc] [--runs 7] [--seconds 60] [--concurrency 2] [--task examples/tasks/access-log-report]
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { createDb } from '../lib/db/index.ts';
import { migrateDatabase } from '../lib/db/migrations.ts';
import { writeTaskDir, readTaskDir, storeBundle } from '../lib/env/index.ts';
import { parseTaskConfig } from '../lib/bundle/index.ts';
import {
  DockerSandbox,
  ensureBaseImage,
  type TrialResult,
  parseSandboxRuntime,
  withSandboxRuntime,
  type SandboxRuntime,
  warmPoolFor,
} from '../lib/sandbox/index.ts';
import { trialRequest, validateEnvironment } from '../lib/validate/index.ts';
import { isMain } from './main.ts';
import { measureRoundTrips, type RoundTrips } from './round-trips.ts';
import { summarize, timed, type Summary } from './stats.ts';

const run = promisify(execFile);

export interface SandboxOverheadResult {
  runtime?: SandboxRuntime; // absent in reports from before the runtime was a choice (runc)
  task: string;
  imageId: string;
  poolSize: number;
  concurrency: number;
  dockerRunMs: Summary; // the baseline
  daemonCycleMs: Summary; // create + start + remove through the API, one container
  roundTrips?: RoundTrips; // one exec against one session script (absent in reports from before sessions)
  oracleTrialColdMs: Summary; // no pool: create + start on the critical path
  oracleTrialWarmMs: Summary;
  validationWarmMs: Summary; // oracle ‖ invalid-test, pool warm
  phasesWarmMs: Record<string, Summary>; // laps of the warm oracle trial
  phasesColdMs: Record<string, Summary>;
  sustained: { seconds: number; validations: number; perMinute: number; poolHits: number; poolMisses: number };
  daemon: { seconds: number; containers: number; containersPerMinute: number; validationsPerMinuteCeiling: number };
}

function lapsSummary(trials: TrialResult[]): Record<string, Summary> {
  const names = new Set(trials.flatMap((t) => Object.keys(t.phaseMs ?? {})));
  return Object.fromEntries([...names].map((name) => [name, summarize(trials.map((t) => t.phaseMs?.[name] ?? 0))]));
}

async function forSeconds(seconds: number, concurrency: number, body: () => Promise<void>): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await body();
        done += 1;
      }
    }),
  );
  return done;
}

export async function measureSandboxOverhead(opts: {
  runs: number;
  seconds: number;
  concurrency: number;
  task: string;
  runtime: SandboxRuntime;
  progress?: (m: string) => void;
}): Promise<SandboxOverheadResult> {
  const progress = opts.progress ?? (() => {});
  const runtime = opts.runtime;
  const work = await mkdtemp(join(tmpdir(), 'envolve-bench-sandbox-'));
  const url = `file:${join(work, 'bench.db')}`;
  await migrateDatabase(url);
  const db = createDb(url);
  // Two engine connections: one whose pool is off (the cold path), one with the configured pool.
  const cold = new DockerSandbox();
  warmPoolFor(cold.docker, 0);
  const warm = new DockerSandbox();
  const pool = warmPoolFor(warm.docker);
  try {
    await ensureBaseImage({ docker: warm.docker });
    const { bundle } = await readTaskDir(resolve(opts.task));
    const versionId = await storeBundle(db, bundle, { source: 'import' });
    const parsed = parseTaskConfig(bundle.files.find((f) => f.path === 'task.toml')!.content.toString('utf8'));
    if (!parsed.ok) throw new Error(parsed.error);
    const { imageId } = await warm.buildEnvironmentImage(bundle);
    const taskDir = await writeTaskDir(bundle, join(work, 'task'), null);
    const oracle = { ...trialRequest(bundle, parsed.config, imageId, { kind: 'oracle' }, {}), runtime };

    const plainDockerRun = () =>
      run('docker', [
        'run',
        '--rm',
        '--network',
        'none',
        '--runtime',
        runtime,
        '-v',
        `${taskDir}/solution:/solution:ro`,
        '-v',
        `${taskDir}/tests:/tests:ro`,
        '--user',
        'root',
        imageId,
        'bash',
        '-c',
        'su agent -c "cd /app && bash /solution/solve.sh" && bash /tests/test.sh && cat /logs/verifier/reward.txt',
      ]);
    const daemonCycle = async () => {
      const c = await warm.docker.createContainer({
        Image: imageId,
        Entrypoint: ['sleep'],
        Cmd: ['infinity'],
        HostConfig: { NetworkMode: 'none', Runtime: runtime },
        Labels: { 'envolve.bench': '1' },
      });
      await c.start();
      await c.remove({ force: true });
    };
    const checked = async (sandbox: DockerSandbox): Promise<TrialResult> => {
      const trial = await sandbox.runTrial(oracle);
      if (trial.status !== 'completed' || trial.reward !== 1) throw new Error(`oracle trial did not score 1: ${trial.status} ${trial.error ?? ''}`);
      return trial;
    };
    const validation = async () => {
      const runs = await validateEnvironment({ db, sandbox: withSandboxRuntime(warm, runtime), versionId });
      if (runs.some((r) => r.verdict !== 'passed'))
        throw new Error(`validation failed: ${runs.map((r) => `${r.kind} ${r.verdict} ${r.error ?? ''}`).join('; ')}`);
    };

    // Warm caches (page cache, image layers, image config) and the pool before measuring.
    await plainDockerRun();
    await checked(cold);
    // The pool fills for a configuration once it has been asked for more than `size` times.
    for (let i = 0; i <= pool.size; i++) await checked(warm);
    await pool.whenFilled();

    const samples = { dockerRun: [] as number[], daemon: [] as number[], cold: [] as number[], warm: [] as number[], validation: [] as number[] };
    const coldTrials: TrialResult[] = [];
    const warmTrials: TrialResult[] = [];
    for (let i = 0; i < opts.runs; i++) {
      samples.dockerRun.push(await timed(plainDockerRun));
      samples.daemon.push(await timed(daemonCycle));
      samples.cold.push(await timed(async () => coldTrials.push(await checked(cold))));
      await pool.whenFilled();
      samples.warm.push(await timed(async () => warmTrials.push(await checked(warm))));
      await pool.whenFilled();
      samples.validation.push(await timed(validation));
      await pool.whenFilled();
      progress(`sandbox overhead: run ${i + 1}/${opts.runs}`);
    }

    progress('round trips: an exec of true against a session script of true');
    const roundTrips = await measureRoundTrips(warm.docker, imageId, runtime, opts.runs * 3);
    progress(`sustained: validations at concurrency ${opts.concurrency} for ${opts.seconds}s`);
    const before = pool.stats();
    const started = performance.now();
    const validations = await forSeconds(opts.seconds, opts.concurrency, validation);
    const sustainedSec = (performance.now() - started) / 1000;
    const after = pool.stats();
    progress(`daemon: create + start + remove at concurrency ${opts.concurrency} for ${opts.seconds}s`);
    const daemonStarted = performance.now();
    const containers = await forSeconds(opts.seconds, opts.concurrency, daemonCycle);
    const daemonSec = (performance.now() - daemonStarted) / 1000;
    const containersPerMinute = (containers / daemonSec) * 60;

    return {
      runtime,
      task: bundle.name,
      imageId,
      poolSize: pool.size,
      concurrency: opts.concurrency,
      dockerRunMs: summarize(samples.dockerRun),
      daemonCycleMs: summarize(samples.daemon),
      roundTrips,
      oracleTrialColdMs: summarize(samples.cold),
      oracleTrialWarmMs: summarize(samples.warm),
      validationWarmMs: summarize(samples.validation),
      phasesWarmMs: lapsSummary(warmTrials),
      phasesColdMs: lapsSummary(coldTrials),
      sustained: {
        seconds: Math.round(sustainedSec),
        validations,
        perMinute: (validations / sustainedSec) * 60,
        poolHits: after.hits - before.hits,
        poolMisses: after.misses - before.misses,
      },
      // A validation takes two containers (oracle and invalid-test).
      daemon: { seconds: Math.round(daemonSec), containers, containersPerMinute, validationsPerMinuteCeiling: containersPerMinute / 2 },
    };
  } finally {
    await pool.drain();
    await db.$disconnect();
    await rm(work, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '7' },
      seconds: { type: 'string', default: '60' },
      concurrency: { type: 'string', default: '2' },
      task: { type: 'string', default: 'examples/tasks/access-log-report' },
      runtime: { type: 'string', default: 'runc' },
    },
  });
  const result = await measureSandboxOverhead({
    runs: Number(values.runs),
    seconds: Number(values.seconds),
    concurrency: Number(values.concurrency),
    task: String(values.task),
    runtime: parseSandboxRuntime(values.runtime, '--runtime'),
    progress: (m) => process.stderr.write(`${m}\n`),
  });
  console.log(JSON.stringify(result, null, 2));
}
