// Validated generations per minute with the procedural synthesiser, for one lineage and for
// several lineages evolving at once, against one plain validation of the same seed measured in
// the same run (the floor: a generation validates at least once).
//   npx tsx bench/evolution-throughput.ts [--runs 3] [--generations 5] [--parallel 3]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, type Db } from '../lib/db/client.ts';
import { migrateDatabase } from '../lib/db/migrate.ts';
import { storeBundle } from '../lib/env/store.ts';
import { evolveLineage, findOrCreateLineage } from '../lib/evolution/index.ts';
import { DockerSandbox, ensureBaseImage } from '../lib/sandbox/index.ts';
import { newSeedSequence, renderEnvironment } from '../lib/synth/procedural/index.ts';
import { createSynthesis } from '../lib/synth/index.ts';
import { validateEnvironment } from '../lib/validate/validate-environment.ts';
import { summarize, timed } from './stats.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    generations: { type: 'string', default: '5' },
    parallel: { type: 'string', default: '3' },
  },
});
const runs = Number(values.runs);
const generations = Number(values.generations);
const parallel = Number(values.parallel);

const sandbox = new DockerSandbox();
await ensureBaseImage({ docker: sandbox.docker });

async function freshDb(): Promise<{ db: Db; done: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'envolve-bench-evo-'));
  const url = `file:${join(dir, 'bench.db')}`;
  await migrateDatabase(url);
  const db = createDb(url);
  return { db, done: async () => (await db.$disconnect(), await rm(dir, { recursive: true, force: true })) };
}

async function storeSeed(db: Db, seed: number): Promise<string> {
  const sequence = newSeedSequence(seed, { steps: 2 });
  return storeBundle(db, renderEnvironment(sequence, { seed, name: `bench-${seed}` }), {
    source: 'import',
    metadata: { kind: 'seed', generation: 0, parents: [], sequence },
  });
}

async function evolveMany(db: Db, lineages: number, run: number): Promise<number> {
  const ids = await Promise.all(
    Array.from({ length: lineages }, async (_, i) => {
      const seed = 1000 * run + i;
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
  const context = { db, sandbox, ...createSynthesis('procedural', { sandbox }), progress: () => {} };
  const results = await Promise.all(ids.map((id) => evolveLineage(context, id, generations)));
  return results.reduce((n, r) => n + r.validated.length, 0);
}

const samples = { validation: [] as number[], single: [] as number[], parallel: [] as number[] };
for (let run = 1; run <= runs; run++) {
  const { db, done } = await freshDb();
  const seedId = await storeSeed(db, 999_000 + run);
  samples.validation.push(await timed(() => validateEnvironment({ db, sandbox, versionId: seedId })));
  let validated = 0;
  const single = await timed(async () => (validated = await evolveMany(db, 1, run)));
  samples.single.push((validated / single) * 60_000);
  const many = await timed(async () => (validated = await evolveMany(db, parallel, run + 100)));
  samples.parallel.push((validated / many) * 60_000);
  await done();
  process.stderr.write(`run ${run}/${runs}\n`);
}

const validation = summarize(samples.validation);
const single = summarize(samples.single);
const many = summarize(samples.parallel);
const floorPerMinute = 60_000 / validation.median;
console.log(`one plain validation of a seed (baseline)     ${Math.round(validation.median)} ms → ${floorPerMinute.toFixed(1)} per minute`);
console.log(
  `1 lineage × ${generations} generations               ${single.median.toFixed(1)} generations/min (min ${single.min.toFixed(1)}, max ${single.max.toFixed(1)})  ratio to baseline ${(single.median / floorPerMinute).toFixed(2)}`,
);
console.log(
  `${parallel} lineages × ${generations} generations in parallel  ${many.median.toFixed(1)} generations/min (min ${many.min.toFixed(1)}, max ${many.max.toFixed(1)})  ratio to baseline ${(many.median / floorPerMinute).toFixed(2)}`,
);
