// The benchmark report: every figure with its baseline and ratio, and each target it is measured against
// marked met or missed (a miss is printed, never dropped).
import type { BrowserResult } from './browser.ts';
import type { DashboardLoadResult } from './dashboard-load.ts';
import type { ColdWarm, DriftDataResult } from './drift-data.ts';
import { LANES_PER_WORKER, PAPER, type EvolutionResult, type Spread } from './evolution-throughput.ts';
import { formatRubricChecks, type RubricChecksResult } from './rubric-checks.ts';
import type { SandboxOverheadResult } from './sandbox-overhead.ts';
import { formatPercentiles, type Summary } from './stats.ts';

export interface BenchReport {
  mode: 'quick' | 'full';
  startedAt: string;
  durationSec?: number;
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; docker: string; loadAverageAtStart: number[] };
  commit: string;
  dirty: boolean;
  build?: string; // which web build the dashboard and browser parts measured
  seed?: { ms: number; lineages: number; generations: number; attempts: number; rollouts: number; steps: number; validatorRuns?: number };
  gvisorMissing?: string; // why the gVisor half of the sandbox part did not run
  failure?: string; // the error that ended the run early: the parts before it are all this report has
  parts: {
    sandbox?: SandboxOverheadResult;
    sandboxGvisor?: SandboxOverheadResult;
    rubricChecks?: RubricChecksResult;
    evolution?: EvolutionResult;
    dashboard?: DashboardLoadResult;
    browser?: BrowserResult;
    drift?: DriftDataResult;
  };
  loadAverages: Record<string, number[]>;
}

interface Target {
  what: string;
  target: string;
  measured: string;
  met: boolean;
}

const ms = (s: Summary) => `${Math.round(s.median)} ms (${Math.round(s.min)}–${Math.round(s.max)}, n=${s.n})`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const mark = (met: boolean) => (met ? '✅ met' : '❌ missed');

export function targetsOf(r: BenchReport): Target[] {
  const targets: Target[] = [];
  const { sandbox, sandboxGvisor, rubricChecks, evolution, dashboard, browser, drift } = r.parts;
  for (const s of [sandbox, sandboxGvisor]) if (s) targets.push(...sandboxTargets(s));
  if (rubricChecks) {
    const slowest = [...rubricChecks.items].sort((a, b) => b.shareOfBudget - a.shareOfBudget)[0]!;
    const share = `${(slowest.shareOfBudget * 100).toFixed(1)} % (${slowest.key})`;
    targets.push({
      what: `slowest executable rubric item, ${rubricChecks.steps}-step task`,
      target: '≤ 5 % of its budget',
      measured: share,
      met: slowest.shareOfBudget <= 0.05,
    });
  }
  if (evolution) {
    targets.push({
      what: `paper run (127 × 15, probed ×8) on this machine, ${evolution.paper.bestWorkers} worker(s): an extrapolation from the measured run`,
      target: '< 6 h',
      measured: `${evolution.paper.oneMachineHours.toFixed(1)} h`,
      met: evolution.paper.oneMachineHours < 6,
    });
  }
  if (dashboard) {
    for (const e of dashboard.endpoints.filter((e) => e.kind === 'list' || e.kind === 'tree')) {
      targets.push({ what: `p95 of ${e.name}`, target: '< 100 ms', measured: e.failed ?? `${Math.round(e.p95Ms)} ms`, met: !e.failed && e.p95Ms < 100 });
    }
    const batch = dashboard.endpoints.filter((e) => e.kind === 'batch').sort((a, b) => b.requestsPerSec - a.requestsPerSec)[0];
    if (batch)
      targets.push({
        what: 'scheduler batch throughput',
        target: '≥ 500 req/s',
        measured: `${batch.requestsPerSec} req/s (${batch.connections} connections)`,
        met: batch.requestsPerSec >= 500,
      });
  }
  if (browser) {
    targets.push({
      what: 'lineage tree (15 × 3) first meaningful render',
      target: '< 1 s',
      measured: `${Math.round(browser.treeReadyMs.median)} ms`,
      met: browser.treeReadyMs.median < 1000,
    });
    targets.push({
      what: '500-turn trajectory first meaningful render',
      target: '< 1.5 s',
      measured: `${Math.round(browser.trajectoryShownMs.median)} ms`,
      met: browser.trajectoryShownMs.median < 1500,
    });
    targets.push({
      what: 'labelling submit → next item',
      target: '< 100 ms',
      measured: `${Math.round(browser.labelSubmitToNextMs.median)} ms`,
      met: browser.labelSubmitToNextMs.median < 100,
    });
  }
  if (drift) targets.push(...driftTargets(drift));
  return targets;
}

// Issue 29's drift targets: the memoised read, with the inputs unchanged (warm), beside the read
// that follows a write and computes everything (cold: the baseline).
function driftTargets(d: DriftDataResult): Target[] {
  const scale = `${d.lineages} × ${d.generations}`;
  const targets: Target[] = [];
  if (d.http)
    targets.push({
      what: `p95 of GET /api/drift, ${scale}, warm (cold: after a write)`,
      target: '≤ 100 ms',
      measured: `${d.http.warm.p95} ms (cold ${d.http.cold.p95} ms)`,
      met: d.http.warm.p95 <= 100,
    });
  if (d.firstChart)
    targets.push({
      what: `p95 of the drift page's first chart drawn, ${scale}, warm (cold: after a write)`,
      target: '≤ 1 s',
      measured: `${Math.round(d.firstChart.warm.p95)} ms (cold ${Math.round(d.firstChart.cold.p95)} ms, n=${d.firstChart.warm.n})`,
      met: d.firstChart.warm.p95 <= 1000,
    });
  return targets;
}

function renderDrift(lines: string[], d: DriftDataResult): void {
  const row = (what: string, c: ColdWarm) => lines.push(`| ${what} | ${c.cold.p50} / ${c.cold.p95} ms | ${c.warm.p50} / ${c.warm.p95} ms | ${c.p95Ratio}× |`);
  lines.push(
    '',
    '### Drift data: memoised against recomputed',
    '',
    `${d.lineages} lineages × ${d.generations} generations, ${d.responseBytes.toLocaleString('en')} bytes of JSON. Cold (the baseline): each read follows a write to a drift input from another connection, so it loads and computes everything, as every read did before the memo. Warm: the inputs unchanged. Interleaved, one connection.`,
    '',
    '| measurement | cold p50 / p95 (baseline) | warm p50 / p95 | cold p95 / warm p95 |',
    '| --- | --- | --- | --- |',
  );
  row("in the web process's code (lib, JSON included)", d.inProcess);
  if (d.http) {
    row('GET /api/drift (gzip accepted, as by a browser)', d.http);
    lines.push(`| trivial route GET /api/health (same run) | – | ${d.http.trivial.p50} / ${d.http.trivial.p95} ms | – |`);
  }
  if (d.firstChart)
    lines.push(
      '',
      `First chart drawn (navigation → 'drift-chart-ready'): cold ${formatPercentiles(d.firstChart.cold)}; warm ${formatPercentiles(d.firstChart.warm)}; first contentful paint (warm) ${formatPercentiles(d.firstChart.fcpWarm)}.`,
    );
}

// Issue 20's targets, each against the baseline of the same runtime in the same run.
function sandboxTargets(s: SandboxOverheadResult): Target[] {
  const under = `(${s.runtime ?? 'runc'})`;
  const oracle = s.oracleTrialWarmMs.median / s.dockerRunMs.median;
  const validation = s.validationWarmMs.median / s.dockerRunMs.median;
  const sustained = s.sustained.perMinute / s.daemon.validationsPerMinuteCeiling;
  return [
    { what: `oracle trial vs plain docker run ${under}`, target: '≤ 0.5×', measured: `${oracle.toFixed(2)}×`, met: oracle <= 0.5 },
    { what: `oracle validation vs plain docker run ${under}`, target: '≤ 1.0×', measured: `${validation.toFixed(2)}×`, met: validation <= 1 },
    { what: `sustained validations vs the daemon's ceiling ${under}`, target: '≥ 0.8×', measured: `${sustained.toFixed(2)}×`, met: sustained >= 0.8 },
  ];
}

function renderSandbox(lines: string[], sandbox: SandboxOverheadResult, heading: string): void {
  const d = sandbox.dockerRunMs.median;
  const runtime = sandbox.runtime ?? 'runc';
  lines.push(
    '',
    heading,
    '',
    `Runtime \`${runtime}\` for everything below, baselines included. Task \`${sandbox.task}\`, image \`${sandbox.imageId.slice(7, 19)}\`, warm pool of ${sandbox.poolSize} per configuration. Medians (min–max).`,
    '',
  );
  lines.push('| measurement | time | vs docker run |', '| --- | --- | --- |');
  lines.push(`| plain \`docker run --rm --network none --runtime ${runtime} IMAGE sh -c 'solve; test'\` (baseline) | ${ms(sandbox.dockerRunMs)} | 1.00× |`);
  lines.push(`| daemon floor: create + start + remove through the API | ${ms(sandbox.daemonCycleMs)} | ${ratio(sandbox.daemonCycleMs.median, d)} |`);
  if (sandbox.roundTrips) {
    lines.push(
      `| one engine round trip: \`docker exec\` of \`true\` in a running container | ${ms(sandbox.roundTrips.execMs)} | ${ratio(sandbox.roundTrips.execMs.median, d)} |`,
    );
    lines.push(
      `| one engine round trip: a script of \`true\` through the trial's session (what a trial step costs now) | ${ms(sandbox.roundTrips.sessionMs)} | ${ratio(sandbox.roundTrips.sessionMs.median, d)} |`,
    );
  }
  lines.push(
    `| Envolve oracle trial, pool off (create + start on the critical path) | ${ms(sandbox.oracleTrialColdMs)} | ${ratio(sandbox.oracleTrialColdMs.median, d)} |`,
  );
  lines.push(`| Envolve oracle trial, pool warm | ${ms(sandbox.oracleTrialWarmMs)} | ${ratio(sandbox.oracleTrialWarmMs.median, d)} |`);
  lines.push(
    `| **Envolve oracle validation** (oracle ‖ invalid-test, stored), pool warm | ${ms(sandbox.validationWarmMs)} | **${ratio(sandbox.validationWarmMs.median, d)}** |`,
  );
  lines.push(
    '',
    "Where a trial's time goes (laps of the critical path; removal happens after the result, off it):",
    '',
    '| step | pool warm | pool off |',
    '| --- | --- | --- |',
  );
  for (const [name, s] of Object.entries(sandbox.phasesWarmMs))
    lines.push(`| ${name} | ${Math.round(s.median)} ms | ${Math.round(sandbox.phasesColdMs[name]?.median ?? 0)} ms |`);
  const work = (sandbox.phasesWarmMs.agent?.median ?? 0) + (sandbox.phasesWarmMs.verifier?.median ?? 0);
  const rest = sandbox.oracleTrialWarmMs.median - work;
  lines.push(
    '',
    `The agent and verifier steps, which run the task's own processes (the solution and the tests, as the baseline does; starting them is a fork and a setpriv), take ${Math.round(work)} ms: ${ratio(work, d)} of the baseline, a floor no sandbox design goes under on this runtime. Everything else on the warm trial's critical path takes ${Math.round(rest)} ms (${ratio(rest, d)}).`,
  );
  lines.push(
    '',
    `Sustained, ${sandbox.concurrency} validations at a time for ${sandbox.sustained.seconds} s: **${sandbox.sustained.perMinute.toFixed(1)} validations/min** (${sandbox.sustained.validations} validations; pool hits ${sandbox.sustained.poolHits}, misses ${sandbox.sustained.poolMisses}). The daemon's own create + start + remove at the same concurrency: ${sandbox.daemon.containersPerMinute.toFixed(1)} containers/min, i.e. at most ${sandbox.daemon.validationsPerMinuteCeiling.toFixed(1)} validations/min if a validation (two containers) cost nothing but its containers: ratio ${(sandbox.sustained.perMinute / sandbox.daemon.validationsPerMinuteCeiling).toFixed(2)}.`,
  );
}

// gVisor against runc, each figure of the one over the same figure of the other (same run).
function renderGvisorCost(lines: string[], runc: SandboxOverheadResult, runsc: SandboxOverheadResult): void {
  lines.push('', '### What gVisor costs', '', '| measurement | runc | runsc | runsc / runc |', '| --- | --- | --- | --- |');
  const row = (what: string, a: number, b: number, unit: string) =>
    lines.push(`| ${what} | ${a.toFixed(0)} ${unit} | ${b.toFixed(0)} ${unit} | ${(b / a).toFixed(2)}× |`);
  row('plain docker run', runc.dockerRunMs.median, runsc.dockerRunMs.median, 'ms');
  row('daemon create + start + remove', runc.daemonCycleMs.median, runsc.daemonCycleMs.median, 'ms');
  row('oracle trial, pool warm', runc.oracleTrialWarmMs.median, runsc.oracleTrialWarmMs.median, 'ms');
  row('oracle validation, pool warm', runc.validationWarmMs.median, runsc.validationWarmMs.median, 'ms');
  row('sustained validations', runc.sustained.perMinute, runsc.sustained.perMinute, '/min');
}

export function renderReport(r: BenchReport): string {
  const lines: string[] = [];
  const { sandbox, sandboxGvisor, rubricChecks, evolution, dashboard, browser, drift } = r.parts;
  lines.push(`# Envolve benchmarks (${r.mode} run)`, '');
  if (r.failure) lines.push(`**The run stopped early:** ${r.failure}. Only the parts measured before that are below.`, '');
  lines.push(
    `- Started ${r.startedAt}, took ${r.durationSec ?? '?'} s; commit \`${r.commit.slice(0, 12)}\`${r.dirty ? ' (with uncommitted changes in the working tree)' : ''}`,
  );
  lines.push(`- Machine: ${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGb} GiB, Node ${r.machine.node}, Docker engine ${r.machine.docker}`);
  lines.push(
    `- Load average (1, 5, 15 min) at start: ${r.machine.loadAverageAtStart.join(', ')}; after each part: ${Object.entries(r.loadAverages)
      .map(([k, v]) => `${k} ${v[0]}`)
      .join(', ')}. Other work on the machine inflates every figure; each baseline was measured in the same run, under the same load.`,
  );
  lines.push('', '## Targets', '', '| what | target | measured | |', '| --- | --- | --- | --- |');
  for (const t of targetsOf(r)) lines.push(`| ${t.what} | ${t.target} | ${t.measured} | ${mark(t.met)} |`);

  if (sandbox) renderSandbox(lines, sandbox, '## 1. Sandbox overhead');
  if (sandboxGvisor) renderSandbox(lines, sandboxGvisor, '### The same under gVisor (runsc)');
  else if (r.gvisorMissing) lines.push('', `gVisor (runsc) was not measured: ${r.gvisorMissing}.`);
  if (sandbox && sandboxGvisor) renderGvisorCost(lines, sandbox, sandboxGvisor);
  if (rubricChecks) lines.push('', '### Executable rubric items', '', formatRubricChecks(rubricChecks));
  if (evolution) renderEvolution(lines, evolution);
  if (dashboard && r.seed) {
    lines.push('', '## 3. Dashboard at scale', '');
    if (r.build) lines.push(`Web build: ${r.build}.`, '');
    lines.push(
      `Database: ${r.seed.lineages} lineages × ${r.seed.generations} generations × ${r.seed.attempts} attempts, 8-rollout probes, ${r.seed.rollouts.toLocaleString('en')} trajectories, ${r.seed.steps} stored steps (one 500-turn trajectory), ${r.seed.validatorRuns?.toLocaleString('en') ?? 'no'} validator runs, seeded in ${(r.seed.ms / 1000).toFixed(0)} s. \`next start\` on loopback (ready in ${dashboard.serverReadyMs} ms), autocannon ${dashboard.seconds} s per endpoint after a 2 s warm-up; session cookie from better-auth's sign-in endpoint, trainer bearer token for the batch.`,
      '',
    );
    lines.push('| endpoint | connections | p50 | p95 | p99 | req/s | errors | p95 vs trivial |', '| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const e of dashboard.endpoints) {
      if (e.failed) {
        lines.push(`| ${e.name} | ${e.connections} | ${e.failed}: not measured | | | | | |`);
        continue;
      }
      lines.push(
        `| ${e.name} | ${e.connections} | ${e.p50Ms.toFixed(1)} ms | ${e.p95Ms.toFixed(1)} ms | ${e.p99Ms.toFixed(1)} ms | ${e.requestsPerSec} | ${e.errors} | ${e.p95VsTrivial}× |`,
      );
    }
    lines.push('', `Peak RSS of the web server (process tree) during the load: **${dashboard.webPeakRssMb} MB**.`);
  }
  if (drift) renderDrift(lines, drift);
  if (browser) {
    lines.push('', '## 4. In the browser (Chromium)', '', '| measurement | time | baseline: first contentful paint |', '| --- | --- | --- |');
    lines.push(`| lineage tree 15 × 3 drawn (navigation → 'lineage-tree-ready' mark) | ${ms(browser.treeReadyMs)} | ${ms(browser.treeFcpMs)} |`);
    lines.push(
      `| drift page, 127 lineages × 15 generations: first chart drawn (navigation → 'drift-chart-ready' mark) | ${ms(browser.driftFirstChartMs)} | ${ms(browser.driftFcpMs)} |`,
    );
    lines.push(`| 500-turn trajectory shown (navigation → heading) | ${ms(browser.trajectoryShownMs)} | ${ms(browser.trajectoryFcpMs)} |`);
    lines.push(`| review page, 200-file residual (navigation → DOMContentLoaded) | ${ms(browser.reviewDomContentLoadedMs)} | ${ms(browser.reviewFcpMs)} |`);
    lines.push(`| lineage list, 100 rows shown (navigation → the 100th row) | ${ms(browser.lineageListShownMs)} | ${ms(browser.lineageListFcpMs)} |`);
    lines.push(`| labelling: Ctrl+Enter → next item shown | ${ms(browser.labelSubmitToNextMs)} | – |`);
    lines.push(
      '',
      `Label saves with no response within 15 s: ${browser.labelSavesUnanswered} of ${browser.labelSubmitToNextMs.n} (the page shows the next item before the save returns). Ctrl+Enter presses with an answer selected that showed no next item within 5 s (given again): ${browser.labelSubmitsDropped}.`,
    );
  }
  lines.push('', '## 5. Memory', '');
  if (dashboard) lines.push(`- Web server (next start, whole process tree) under the dashboard load: peak ${dashboard.webPeakRssMb} MB.`);
  if (evolution) lines.push(`- Evolving process (evolution + validation + probes, a worker's job handlers in one process): peak ${evolution.peakRssMb} MB.`);
  lines.push('');
  return lines.join('\n');
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const spreadText = (s: Spread) => `${seconds(s.median)} (p10 ${seconds(s.p10)}, p90 ${seconds(s.p90)}; ${seconds(s.min)}–${seconds(s.max)}, n=${s.n})`;

function renderEvolution(lines: string[], e: EvolutionResult): void {
  lines.push('', '## 2. The paper run at scale', '');
  lines.push(
    `Measured: ${e.lineages} seeds × ${e.generationsPerLineage} generations, ${e.lanes} lineages evolving at a time (${e.lanes / LANES_PER_WORKER} worker(s) of ${LANES_PER_WORKER} jobs each), procedural synthesiser, round-robin axes, low effort; every generation validated (oracle ‖ invalid-test, rubric) and its version probed with 8 simulated rollouts at concurrency ${e.probeConcurrency}, all in real containers.`,
    '',
  );
  lines.push('| measurement | value |', '| --- | --- |');
  lines.push(`| wall time | **${(e.wallMs / 60_000).toFixed(1)} min** |`);
  lines.push(
    `| validated + probed generations | ${e.validatedGenerations} of ${e.lineages * e.generationsPerLineage} (failed tries along the way, each retried: ${e.failedGenerations}) |`,
  );
  const stopped = e.stoppedLineages.map((s) => `seed ${s.lineage + 1} at generation ${s.at}: ${s.why}`).join('; ');
  lines.push(`| lineages that could evolve no further | ${e.stoppedLineages.length}${stopped ? ` (${stopped})` : ''} |`);
  lines.push(`| **throughput** | **${e.generationsPerMinute.toFixed(2)} generations/min** |`);
  lines.push(`| time per validated generation (evolution, failed tries included, + probe; median, p10, p90, range) | ${spreadText(e.perGeneration)} |`);
  lines.push(`| its evolution part | ${spreadText(e.evolveMs)} |`);
  lines.push(`| its probe part (8 rollouts) | ${spreadText(e.probeMs)} |`);
  lines.push(
    `| baseline: one plain validation of a seed | ${e.plainValidationMs} ms → ${e.floorGenerationsPerMinute.toFixed(1)} validations/min back to back; ratio ${(e.generationsPerMinute / e.floorGenerationsPerMinute).toFixed(2)} |`,
  );
  lines.push(`| containers per generation (trials, rubric checks, probe rollouts) | ${e.containersPerGeneration.toFixed(1)} |`);
  lines.push(`| probe passes | ${e.probePasses}/${e.probeRollouts} |`);
  lines.push(`| peak RSS of the evolving process (a worker's work, in one process) | ${e.peakRssMb} MB |`);
  if (e.scaling.length > 0) {
    lines.push('', 'Scaling slices, measured in the same run (each a fresh set of lineages of the same shape):', '');
    lines.push(
      '| workers | lineages at a time | slice | wall time | generations/min | time per generation (median, p10–p90) |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const s of e.scaling)
      lines.push(
        `| ${s.workers} | ${s.lanes} | ${s.lineages} × ${s.generationsPerLineage} | ${seconds(s.wallMs)} | ${s.generationsPerMinute.toFixed(2)} | ${seconds(s.perGeneration.median)} (${seconds(s.perGeneration.p10)}–${seconds(s.perGeneration.p90)}) |`,
      );
  }
  const p = e.paper;
  lines.push(
    '',
    `**Extrapolation** (not measured): the paper's ${PAPER.seeds} seeds × ${PAPER.generations} generations are ${p.generations} generations, about ${p.containers.toLocaleString('en')} containers at the measured rate per generation. Later generations take longer than the slices' first two, so each worker count's throughput is the main run's (over all ${e.generationsPerLineage} generations) scaled by the slices' ratio:`,
    '',
  );
  lines.push('| workers on this machine | lineages at a time | generations/min (from) | hours for 127 × 15 (extrapolated) |', '| --- | --- | --- | --- |');
  for (const w of p.hoursByWorkers)
    lines.push(`| ${w.workers} | ${w.lanes} | ${w.generationsPerMinute.toFixed(2)} (${w.measuredBy}) | ${w.hours.toFixed(1)} |`);
  lines.push(
    '',
    `Lineages are independent, so N Docker hosts (or machines) of this kind, each with ${p.bestWorkers} worker(s), split them; the slowest gets ⌈127/N⌉ lineages. Extrapolated, assuming each host sustains the throughput measured here:`,
    '',
  );
  lines.push('| hosts | hours (extrapolated) |', '| --- | --- |');
  for (const [n, h] of Object.entries(p.hoursOnHosts)) lines.push(`| ${n} | ${h.toFixed(1)} |`);
  lines.push('', `Machines of this kind needed for the 6-hour target (extrapolated): ${p.machinesFor6Hours}.`);
}
