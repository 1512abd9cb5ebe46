// The paper's run, measured on a slice of it and extrapolated from there: lineages evolving with the
// procedural synthesiser, each generation validated (oracle ‖ invalid-test, rubric) and then probed
// with 8 rollouts of the simulated policy, as the paper's 127 seeds × 15 generations are.
//
// A worker runs `concurrency` jobs at once (settings: 2), and an evolve job evolves one lineage, so
// W workers on one machine evolve W × 2 lineages at a time: the run's "lanes". The main run evolves
// every lineage of the slice through `lanes` lanes and times each validated generation (its evolution,
// failed tries included, then its probe). Short scaling slices, all of one shape, measure throughput at
// 1, 2 and 4 workers' lanes; the 127-seed figures are extrapolations from these measurements.
//   npx tsx bench/evolution-throughput.ts [--lineages 16] [--generations 15] [--lanes 4] [--scaling]
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { settings } from '../lib/config/index.ts';
import { createDb, type Db } from '../lib/db/index.ts';
import { migrateDatabase } from '../lib/db/migrations.ts';
import { storeBundle } from '../lib/env/index.ts';
import { evolveLineage, findOrCreateLineage } from '../lib/evolution/index.ts';
import { DockerSandbox, ensureBaseImage, warmPoolFor } from '../lib/sandbox/index.ts';
import { policyNamed, probeVersion } from '../lib/scheduler/index.ts';
import { createSynthesis, newSeedSequence, renderEnvironment } from '../lib/synth/index.ts';
import { validateEnvironment } from '../lib/validate/index.ts';
import { isMain } from './main.ts';
import { RssSampler } from './rss.ts';
import { timed } from './stats.ts';

export const PAPER = { seeds: 127, generations: 15, probeSize: 8 };
// Lanes one `envolve worker` process has: the jobs it runs at once by default.
export const LANES_PER_WORKER = settings().worker.concurrency;
const WORKER_COUNTS = [1, 2, 4];
// Every scaling slice has this shape, so their throughputs compare.
const SCALING_SLICE = { lineages: 8, generations: 2 };

/** Time per validated generation (ms): its evolution, failed tries included, then its probe. */
export interface Spread {
  median: number;
  p10: number;
  p90: number;
  min: number;
  max: number;
  n: number;
}

export interface LaneRun {
  lanes: number;
  lineages: number;
  generationsPerLineage: number;
  validatedGenerations: number;
  failedGenerations: number; // generations that failed validation on the way (each retried)
  stoppedLineages: { lineage: number; at: number; why: string }[]; // lineages that could evolve no further
  wallMs: number;
  generationsPerMinute: number;
  perGeneration: Spread;
  evolveMs: Spread; // its evolution part
  probeMs: Spread; // its probe part
  containers: number; // trials, rubric checks and probe rollouts the engine created
  probePasses: number;
  probeRollouts: number;
}

export interface EvolutionResult extends LaneRun {
  probeConcurrency: number;
  plainValidationMs: number; // the baseline
  floorGenerationsPerMinute: number; // one validation per generation, back to back
  containersPerGeneration: number;
  peakRssMb: number;
  scaling: (LaneRun & { workers: number })[]; // measured; empty when not asked for
  paper: {
    generations: number;
    containers: number;
    // Extrapolated from the measured throughput at each worker count on this machine (the main run's
    // where no scaling slice was measured). Lineages are independent, so N machines or Docker hosts of
    // this kind split them: the slowest gets ⌈127 / N⌉ lineages.
    hoursByWorkers: { workers: number; lanes: number; generationsPerMinute: number; measuredBy: string; hours: number }[];
    bestWorkers: number;
    hoursOnHosts: Record<string, number>; // N hosts, each with bestWorkers workers
    oneMachineHours: number; // at bestWorkers
    machinesFor6Hours: number;
  };
}

function spread(samples: number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length === 0 ? Number.NaN : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return {
    median: Math.round(median),
    p10: Math.round(at(0.1)),
    p90: Math.round(at(0.9)),
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
    n: sorted.length,
  };
}

async function storeSeed(db: Db, seed: number): Promise<string> {
  const sequence = newSeedSequence(seed, { steps: 2 });
  return storeBundle(db, renderEnvironment(sequence, { seed, name: `bench-${seed}` }), {
    source: 'import',
    metadata: { kind: 'seed', generation: 0, parents: [], sequence },
  });
}

interface Rig {
  db: Db;
  sandbox: DockerSandbox;
  containers: () => number;
  probeConcurrency: number;
}

/** Evolves `lineages` fresh lineages by `generations` validated generations each, `lanes` lineages at a time. */
async function runLanes(
  rig: Rig,
  opts: { lineages: number; generations: number; lanes: number; firstSeed: number; progress: (m: string) => void },
): Promise<LaneRun> {
  const { db, sandbox } = rig;
  const policy = policyNamed('simulated');
  const context = { db, sandbox, ...createSynthesis('procedural', { sandbox }), progress: () => {} };
  const lineageIds = await Promise.all(
    Array.from({ length: opts.lineages }, async (_, i) => {
      const seed = opts.firstSeed + i;
      const lineage = await findOrCreateLineage(db, await storeSeed(db, seed), {
        axisPolicy: { kind: 'round-robin' },
        effort: 'low',
        synthesiser: 'procedural',
        seed,
        loops: { maxPlanRounds: 3, maxModifyRounds: 3 },
      });
      return lineage.row.id;
    }),
  );
  const total = { validated: 0, failed: 0, passes: 0, rollouts: 0 };
  const evolveMs: number[] = [];
  const probeMs: number[] = [];
  const perGeneration: number[] = [];
  const stoppedLineages: LaneRun['stoppedLineages'] = [];
  const containersBefore = rig.containers();
  const lane = pLimit(opts.lanes);
  const evolveOne = async (lineageId: string, i: number) => {
    for (let g = 1; g <= opts.generations; g += 1) {
      const started = performance.now();
      const result = await evolveLineage(context, lineageId, 1);
      const evolved = performance.now() - started;
      total.failed += result.failed.length;
      const generation = result.validated[0];
      if (!generation) {
        const why = result.stopped?.message ?? result.exhausted ?? (result.needsAttention ? 'needs attention' : result.stalled ? 'stalled' : 'no generation');
        stoppedLineages.push({ lineage: i, at: g, why });
        return;
      }
      const probed = await timed(() =>
        probeVersion(
          { db, sandbox },
          { versionId: generation.versionId!, generationId: generation.id, lineageId, policy, size: PAPER.probeSize, concurrency: rig.probeConcurrency },
        ).then((probe) => {
          total.passes += probe.passes;
          total.rollouts += PAPER.probeSize;
        }),
      );
      total.validated += 1;
      evolveMs.push(evolved);
      probeMs.push(probed);
      perGeneration.push(evolved + probed);
      opts.progress(
        `lineage ${i + 1}/${opts.lineages} generation ${g}/${opts.generations}: ${Math.round(evolved + probed)} ms (${total.validated} validated and probed)`,
      );
    }
  };
  const wallMs = await timed(() => Promise.all(lineageIds.map((id, i) => lane(() => evolveOne(id, i)))));
  return {
    lanes: opts.lanes,
    lineages: opts.lineages,
    generationsPerLineage: opts.generations,
    validatedGenerations: total.validated,
    failedGenerations: total.failed,
    stoppedLineages,
    wallMs: Math.round(wallMs),
    generationsPerMinute: (total.validated / wallMs) * 60_000,
    perGeneration: spread(perGeneration),
    evolveMs: spread(evolveMs),
    probeMs: spread(probeMs),
    containers: rig.containers() - containersBefore,
    probePasses: total.passes,
    probeRollouts: total.rollouts,
  };
}

/**
 * The 127-seed figures: extrapolations, labelled as such. The main run measures throughput over the
 * whole depth of a lineage (later generations are longer, and so are their probes); the scaling slices,
 * all shallow and of one shape, measure how throughput changes with the lanes. So the throughput at W
 * workers is the main run's, times slice(W) / the slice at the main run's lanes.
 */
export function extrapolatePaper(main: LaneRun, scaling: (LaneRun & { workers: number })[]): EvolutionResult['paper'] {
  const generations = PAPER.seeds * PAPER.generations;
  const atMainLanes = scaling.find((s) => s.lanes === main.lanes);
  const hoursByWorkers = WORKER_COUNTS.flatMap((workers) => {
    const lanes = workers * LANES_PER_WORKER;
    const slice = scaling.find((s) => s.workers === workers);
    const rate =
      lanes === main.lanes
        ? main.generationsPerMinute
        : slice && atMainLanes
          ? main.generationsPerMinute * (slice.generationsPerMinute / atMainLanes.generationsPerMinute)
          : undefined;
    if (rate === undefined) return [];
    const measuredBy =
      lanes === main.lanes
        ? `main run ${main.lineages} × ${main.generationsPerLineage}`
        : `main run × ${(slice!.generationsPerMinute / atMainLanes!.generationsPerMinute).toFixed(2)}, the scaling slices' ratio`;
    return [{ workers, lanes, generationsPerMinute: rate, measuredBy, hours: generations / rate / 60 }];
  });
  const best = [...hoursByWorkers].sort((a, b) => a.hours - b.hours)[0];
  const rate = best?.generationsPerMinute ?? main.generationsPerMinute;
  const hoursOnHosts: Record<string, number> = {};
  for (const n of [1, 2, 4, 8, 16]) hoursOnHosts[String(n)] = (Math.ceil(PAPER.seeds / n) * PAPER.generations) / rate / 60;
  const oneMachineHours = generations / rate / 60;
  return {
    generations,
    containers: Math.round(generations * (main.validatedGenerations ? main.containers / main.validatedGenerations : 0)),
    hoursByWorkers,
    bestWorkers: best?.workers ?? main.lanes / LANES_PER_WORKER,
    hoursOnHosts,
    oneMachineHours,
    machinesFor6Hours: Math.ceil(oneMachineHours / 6),
  };
}

export async function measureEvolution(opts: {
  lineages: number;
  generations: number;
  lanes: number;
  probeConcurrency: number;
  scaling: boolean;
  progress?: (m: string) => void;
}): Promise<EvolutionResult> {
  const progress = opts.progress ?? (() => {});
  const dir = await mkdtemp(join(tmpdir(), 'envolve-bench-evo-'));
  const url = `file:${join(dir, 'bench.db')}`;
  await migrateDatabase(url);
  const db = createDb(url);
  const sandbox = new DockerSandbox();
  const pool = warmPoolFor(sandbox.docker);
  // Count every container the daemon creates for this run: trials, rubric checks and probes alike.
  let containers = 0;
  const createContainer = sandbox.docker.createContainer.bind(sandbox.docker);
  sandbox.docker.createContainer = ((options: Parameters<typeof createContainer>[0]) => (
    (containers += 1),
    createContainer(options)
  )) as typeof sandbox.docker.createContainer;
  const rss = new RssSampler(process.pid);
  const rig: Rig = { db, sandbox, containers: () => containers, probeConcurrency: opts.probeConcurrency };
  try {
    await ensureBaseImage({ docker: sandbox.docker });
    const baselineSeed = await storeSeed(db, 999_001);
    await validateEnvironment({ db, sandbox, versionId: baselineSeed }); // builds the image, warms caches
    const plainValidationMs = await timed(() => validateEnvironment({ db, sandbox, versionId: baselineSeed }));

    const scaling: EvolutionResult['scaling'] = [];
    if (opts.scaling) {
      for (const workers of WORKER_COUNTS) {
        const lanes = workers * LANES_PER_WORKER;
        progress(`evolution: scaling slice ${SCALING_SLICE.lineages} × ${SCALING_SLICE.generations} with ${workers} worker(s)' lanes (${lanes})`);
        const run = await runLanes(rig, { ...SCALING_SLICE, lanes, firstSeed: 7000 + workers * 100, progress: () => {} });
        scaling.push({ ...run, workers });
        progress(`evolution: ${workers} worker(s): ${run.generationsPerMinute.toFixed(2)} generations/min`);
      }
    }
    progress(`evolution: main run ${opts.lineages} lineages × ${opts.generations} generations, ${opts.lanes} lanes`);
    const main = await runLanes(rig, {
      lineages: opts.lineages,
      generations: opts.generations,
      lanes: opts.lanes,
      firstSeed: 5000,
      progress: (m) => progress(`evolution: ${m}`),
    });
    return {
      ...main,
      probeConcurrency: opts.probeConcurrency,
      plainValidationMs: Math.round(plainValidationMs),
      floorGenerationsPerMinute: 60_000 / plainValidationMs,
      containersPerGeneration: main.validatedGenerations ? main.containers / main.validatedGenerations : 0,
      peakRssMb: rss.stop(),
      scaling,
      paper: extrapolatePaper(main, scaling),
    };
  } finally {
    rss.stop();
    await pool.drain();
    await db.$disconnect();
    await rm(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      lineages: { type: 'string', default: '16' },
      generations: { type: 'string', default: String(PAPER.generations) },
      lanes: { type: 'string', default: String(2 * LANES_PER_WORKER) },
      'probe-concurrency': { type: 'string', default: String(cpus().length) },
      scaling: { type: 'boolean', default: false },
    },
  });
  const result = await measureEvolution({
    lineages: Number(values.lineages),
    generations: Number(values.generations),
    lanes: Number(values.lanes),
    probeConcurrency: Number(values['probe-concurrency']),
    scaling: values.scaling!,
    progress: (m) => process.stderr.write(`${m}\n`),
  });
  console.log(JSON.stringify(result, null, 2));
}
