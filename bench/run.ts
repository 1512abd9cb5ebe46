// `npm run bench [-- --quick]`: every benchmark in one run, each figure beside the
// baseline measured in the same run, written as Markdown and JSON under bench/results/.
// The full run takes about an hour (its paper-scale run, 16 seeds × 15 generations, about half of
// it) and measures the web app of the committed HEAD (built in a clean worktree); --quick (fewer
// samples, shorter loads, a one-generation slice, the existing web build when there is one) under
// five minutes. --parts sandbox,evolution,dashboard,drift,browser runs only those parts (the last three
// share one seeded scale database and web build) and writes
// bench/results/<mode>-<parts>.{md,json}; --sandbox-only is --parts sandbox.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measureBrowser } from './browser.ts';
import { measureDashboardLoad } from './dashboard-load.ts';
import { measureDriftData } from './drift-data.ts';
import { LANES_PER_WORKER, measureEvolution, PAPER } from './evolution-throughput.ts';
import { renderReport, type BenchReport } from './report.ts';
import { measureRubricChecks } from './rubric-checks.ts';
import { measureSandboxOverhead } from './sandbox-overhead.ts';
import { createDocker, registeredRuntimes } from '../lib/sandbox/index.ts';
import { seedScaleDatabase } from './scale-seed.ts';
import { buildCommittedWeb, type WebBuild } from './web-build.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    parts: { type: 'string' },
    'sandbox-only': { type: 'boolean', default: false },
    port: { type: 'string', default: '3147' },
  },
});
const quick = values.quick!;
const PARTS = ['sandbox', 'evolution', 'dashboard', 'drift', 'browser'] as const;
type Part = (typeof PARTS)[number];
const chosen = values['sandbox-only'] ? ['sandbox'] : (values.parts?.split(',').map((p) => p.trim()) ?? [...PARTS]);
const unknown = chosen.filter((p) => !PARTS.includes(p as Part));
if (unknown.length > 0) throw new Error(`--parts: unknown part(s) ${unknown.join(', ')}; the parts are ${PARTS.join(', ')}`);
const runs = (part: Part) => chosen.includes(part);
const partsSuffix = chosen.length === PARTS.length ? '' : `-${chosen.join('-')}`;
const port = Number(values.port);
const distDir = process.env.ENVOLVE_NEXT_DIST_DIR ?? '.next-bench';
const progress = (m: string) => process.stderr.write(`[bench] ${m}\n`);
const started = Date.now();
const load = () => loadavg().map((l) => Math.round(l * 10) / 10);

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
const report: BenchReport = {
  mode: quick ? 'quick' : 'full',
  startedAt: new Date(started).toISOString(),
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    docker: execFileSync('docker', ['version', '--format', '{{.Server.Version}}'], { encoding: 'utf8' }).trim(),
    loadAverageAtStart: load(),
  },
  commit: git('rev-parse', 'HEAD'),
  // The reports this run overwrites do not count as changes to the code measured.
  dirty: git('status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)bench/results').length > 0,
  parts: {},
  loadAverages: {},
};

// Every part measured so far is written even when a later one fails: an hour of measurements is not
// lost to, say, a failed web build.
async function measureParts(): Promise<void> {
  const sandboxBench = { runs: quick ? 3 : 9, seconds: quick ? 15 : 60, concurrency: cpus().length, task: 'examples/tasks/access-log-report', progress };
  if (runs('sandbox')) {
    progress('1/4 sandbox overhead and sustained throughput under runc');
    report.parts.sandbox = await measureSandboxOverhead({ ...sandboxBench, runtime: 'runc' });
    report.loadAverages.sandbox = load();
    const engineRuntimes = await registeredRuntimes(createDocker());
    if (engineRuntimes.includes('runsc')) {
      progress('1/4 the same under gVisor (runsc)');
      report.parts.sandboxGvisor = await measureSandboxOverhead({ ...sandboxBench, runtime: 'runsc' });
      report.loadAverages.sandboxGvisor = load();
    } else {
      report.gvisorMissing = `runsc is not registered with this engine (it has: ${engineRuntimes.join(', ')}); as root: bash scripts/prereqs.sh docker`;
      progress(`1/4 gVisor skipped: ${report.gvisorMissing}`);
    }
    if (!values['sandbox-only']) {
      progress('1/4 executable rubric items on a 17-step task');
      report.parts.rubricChecks = await measureRubricChecks({ rounds: quick ? 3 : 7, steps: 17, progress });
      report.loadAverages.rubricChecks = load();
    }
  }

  if (runs('evolution')) {
    // Full: the paper-scale run (16 seeds × 15 generations, two workers' lanes) and the scaling slices
    // at 1, 2 and 4 workers; quick: one generation of two lineages, no scaling.
    progress('2/4 the paper run at scale (each generation validated and probed with 8 rollouts)');
    report.parts.evolution = await measureEvolution({
      lineages: quick ? 2 : 16,
      generations: quick ? 1 : PAPER.generations,
      lanes: 2 * LANES_PER_WORKER,
      probeConcurrency: cpus().length,
      scaling: !quick,
      progress,
    });
    report.loadAverages.evolution = load();
  }

  if (runs('dashboard') || runs('drift') || runs('browser')) {
    progress('3/4 dashboard at scale: seeding, building, loading');
    const work = await mkdtemp(join(tmpdir(), 'envolve-bench-scale-'));
    let web: WebBuild | undefined;
    try {
      const seed = await seedScaleDatabase(join(work, 'scale.db'));
      report.seed = {
        ms: seed.seedMs,
        lineages: seed.lineages,
        generations: seed.generations,
        attempts: seed.attempts,
        rollouts: seed.rollouts,
        steps: seed.steps,
        validatorRuns: seed.validatorRuns,
      };
      // --quick measures the build already in ENVOLVE_NEXT_DIST_DIR when there is one.
      const reuse = quick && existsSync(join(distDir, 'BUILD_ID'));
      web = reuse ? undefined : buildCommittedWeb(progress);
      report.build = web
        ? `commit ${web.commit.slice(0, 12)}, built in a clean worktree in this run`
        : `the existing build in ${distDir} of this checkout (--quick)`;
      const server = { port, distDir: web?.distDir ?? distDir, cwd: web?.dir };
      if (runs('dashboard')) {
        report.parts.dashboard = await measureDashboardLoad(seed, { seconds: quick ? 3 : 15, connections: 4, batchConnections: 16, ...server, progress });
        report.loadAverages.dashboard = load();
      }
      if (runs('drift')) {
        progress('3/4 drift data: memoised against recomputed (in process, GET /api/drift, first chart drawn)');
        report.parts.drift = await measureDriftData(seed, { runs: quick ? 8 : 20, loads: quick ? 3 : 7, served: true, ...server, progress });
        report.loadAverages.drift = load();
      }
      if (runs('browser')) {
        progress('4/4 in the browser');
        report.parts.browser = await measureBrowser(seed, { loads: quick ? 3 : 9, labels: quick ? 5 : 20, ...server, progress });
        report.loadAverages.browser = load();
      }
    } finally {
      web?.remove();
      await rm(work, { recursive: true, force: true });
    }
  }
}

try {
  await measureParts();
} catch (err) {
  report.failure = err instanceof Error ? err.message : String(err);
  progress(`failed: ${report.failure}`);
  writeReport(partsSuffix, 1);
}
writeReport(partsSuffix, 0);

function writeReport(suffix: string, exitCode: number): never {
  report.durationSec = Math.round((Date.now() - started) / 1000);
  mkdirSync('bench/results', { recursive: true });
  const base = `bench/results/${report.mode}${suffix}`;
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${base}.md`, renderReport(report));
  progress(`wrote ${base}.md and ${base}.json in ${report.durationSec} s`);
  process.exit(exitCode);
}
