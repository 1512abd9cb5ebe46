// Evolution throughput and the paper's run extrapolated: a slice of lineages evolving in parallel
// with the procedural synthesiser, each generation validated (oracle ‖ invalid-test, rubric) and
// then probed with 8 rollouts of the simulated policy, as the paper's 127 seeds × 15 generations
// are. Measured: validated-and-probed generations per minute, containers per generation, and the
// peak RSS of this process (it does what a worker does, in one process); against one plain
// validation of a seed measured in the same run (the floor: a generation validates at least once).
//   npx tsx bench/evolution-throughput.ts [--lineages 4] [--generations 4] [--probe-concurrency 2]
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
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

export interface EvolutionResult {
  lineages: number;
  generationsPerLineage: number;
  probeConcurrency: number;
  validatedGenerations: number;
  failedGenerations: number;
  wallMs: number;
  generationsPerMinute: number;
  plainValidationMs: number; // the baseline
  floorGenerationsPerMinute: number; // one validation per generation, back to back
  containersPerGeneration: number; // trials + rubric check containers, per validated generation
  probePasses: number;
  probeRollouts: number;
  peakRssMb: number;
  paper: {
    generations: number;
    containers: number;
    oneMachineHours: number;
    machinesFor6Hours: number;
    hoursOn: Record<string, number>; // N machines → hours, lineages split evenly
  };
}

async function storeSeed(db: Db, seed: number): Promise<string> {
  const sequence = newSeedSequence(seed, { steps: 2 });
  return storeBundle(db, renderEnvironment(sequence, { seed, name: `bench-${seed}` }), {
    source: 'import',
    metadata: { kind: 'seed', generation: 0, parents: [], sequence },
  });
}

export async function measureEvolution(opts: {
  lineages: number;
  generations: number;
  probeConcurrency: number;
  progress?: (m: string) => void;
}): Promise<EvolutionResult> {
  const progress = opts.progress ?? (() => {});
  const dir = await mkdtemp(join(tmpdir(), 'envolve-bench-evo-'));
  const url = `file:${join(dir, 'bench.db')}`;
  await migrateDatabase(url);
  const db = createDb(url);
  const sandbox = new DockerSandbox();
  const pool = warmPoolFor(sandbox.docker);
  // Count every container the daemon creates for this run: trials and rubric checks alike.
  let containers = 0;
  const createContainer = sandbox.docker.createContainer.bind(sandbox.docker);
  sandbox.docker.createContainer = ((options: Parameters<typeof createContainer>[0]) => (
    (containers += 1),
    createContainer(options)
  )) as typeof sandbox.docker.createContainer;
  const rss = new RssSampler(process.pid);
  try {
    await ensureBaseImage({ docker: sandbox.docker });
    const baselineSeed = await storeSeed(db, 999_001);
    await validateEnvironment({ db, sandbox, versionId: baselineSeed }); // builds the image, warms caches
    const plainValidationMs = await timed(() => validateEnvironment({ db, sandbox, versionId: baselineSeed }));
    containers = 0;

    const policy = policyNamed('simulated');
    const context = { db, sandbox, ...createSynthesis('procedural', { sandbox }), progress: () => {} };
    let validated = 0;
    let failed = 0;
    let passes = 0;
    let rollouts = 0;
    const lineageIds = await Promise.all(
      Array.from({ length: opts.lineages }, async (_, i) => {
        const lineage = await findOrCreateLineage(db, await storeSeed(db, 5000 + i), {
          axisPolicy: { kind: 'round-robin' },
          effort: 'low',
          synthesiser: 'procedural',
          seed: 5000 + i,
          loops: { maxPlanRounds: 3, maxModifyRounds: 3 },
        });
        return lineage.row.id;
      }),
    );
    const wallMs = await timed(() =>
      Promise.all(
        lineageIds.map(async (lineageId, i) => {
          for (let g = 1; g <= opts.generations; g += 1) {
            const result = await evolveLineage(context, lineageId, 1);
            failed += result.failed.length;
            for (const generation of result.validated) {
              const probe = await probeVersion(
                { db, sandbox },
                { versionId: generation.versionId!, generationId: generation.id, lineageId, policy, size: PAPER.probeSize, concurrency: opts.probeConcurrency },
              );
              validated += 1;
              passes += probe.passes;
              rollouts += PAPER.probeSize;
            }
            if (result.stalled) break;
            progress(`evolution: lineage ${i + 1}/${opts.lineages} generation ${g}/${opts.generations} (${validated} validated and probed so far)`);
          }
        }),
      ),
    );

    const generationsPerMinute = (validated / wallMs) * 60_000;
    const paperGenerations = PAPER.seeds * PAPER.generations;
    const oneMachineHours = paperGenerations / generationsPerMinute / 60;
    const hoursOn: Record<string, number> = {};
    for (const n of [1, 2, 4, 8, 16]) {
      // Lineages are independent: split evenly, the slowest machine gets ceil(127 / n) of them.
      hoursOn[String(n)] = (Math.ceil(PAPER.seeds / n) * PAPER.generations) / generationsPerMinute / 60;
    }
    return {
      lineages: opts.lineages,
      generationsPerLineage: opts.generations,
      probeConcurrency: opts.probeConcurrency,
      validatedGenerations: validated,
      failedGenerations: failed,
      wallMs: Math.round(wallMs),
      generationsPerMinute,
      plainValidationMs: Math.round(plainValidationMs),
      floorGenerationsPerMinute: 60_000 / plainValidationMs,
      containersPerGeneration: validated ? containers / validated : 0,
      probePasses: passes,
      probeRollouts: rollouts,
      peakRssMb: rss.stop(),
      paper: {
        generations: paperGenerations,
        containers: Math.round(paperGenerations * (validated ? containers / validated : 0)),
        oneMachineHours,
        machinesFor6Hours: Math.ceil(oneMachineHours / 6),
        hoursOn,
      },
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
      lineages: { type: 'string', default: '4' },
      generations: { type: 'string', default: '4' },
      'probe-concurrency': { type: 'string', default: String(cpus().length) },
    },
  });
  const result = await measureEvolution({
    lineages: Number(values.lineages),
    generations: Number(values.generations),
    probeConcurrency: Number(values['probe-concurrency']),
    progress: (m) => process.stderr.write(`${m}\n`),
  });
  console.log(JSON.stringify(result, null, 2));
}
