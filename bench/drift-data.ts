// Server time to compute the drift page's data for many lineages: load (a fixed number of
// grouped queries) + compute (filter, ten metric charts with bands, effect spectrum, alerts),
// against a trivial query baseline (one indexed count) measured interleaved in the same run.
// Writes the synthetic data of the e2e drift fixture into a fresh temp database first.
//   npx tsx bench/drift-data.ts [--lineages 100] [--generations 15] [--runs 15]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeDriftData } from '../e2e/fixtures/drift-seed.ts';
import { DEFAULT_ALERT_THRESHOLDS, loadCalibrationStatuses, driftFilterFromSearchParams, loadDrift, driftView } from '../lib/drift/index.ts';
import { schedulerConfigFrom } from '../lib/scheduler/index.ts';
import { createDb } from '../lib/db/index.ts';
import { migrateDatabase } from '../lib/db/migrations.ts';
import { formatMs, summarize, timed } from './stats.ts';
import { settings } from '../lib/config/index.ts';

const { values } = parseArgs({
  options: { lineages: { type: 'string', default: '100' }, generations: { type: 'string', default: '15' }, runs: { type: 'string', default: '15' } },
});
const lineages = Number(values.lineages);
const generations = Number(values.generations);
const runs = Number(values.runs);

const work = await mkdtemp(join(tmpdir(), 'envolve-drift-bench-'));
const file = join(work, 'bench.db');
await migrateDatabase(`file:${file}`);
const seedStarted = performance.now();
const summary = writeDriftData(file, { lineages, generations });
const seedMs = performance.now() - seedStarted;
const db = createDb(`file:${file}`);
try {
  const filter = driftFilterFromSearchParams({});
  let points = 0;
  const compute = async () => {
    const [input, calibration] = await Promise.all([
      loadDrift(db, { defaultPolicy: schedulerConfigFrom(settings().scheduler).probePolicy }),
      loadCalibrationStatuses(db),
    ]);
    const view = driftView(input, filter, { calibration, thresholds: DEFAULT_ALERT_THRESHOLDS, now: new Date() });
    points = input.points.length;
    return view;
  };
  const baseline = () => db.lineage.count({ where: { synthesiser: 'procedural' } });
  await compute(); // warm-up: connection, prepared statements, JIT
  await baseline();
  const drift: number[] = [];
  const trivial: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    drift.push(await timed(compute));
    trivial.push(await timed(baseline));
  }
  const result = {
    lineages,
    generations,
    points,
    seedWriteMs: Math.round(seedMs),
    driftLoadAndComputeMs: summarize(drift),
    trivialQueryMs: summarize(trivial),
    candidates: summary.candidates,
  };
  console.error(`seeded ${lineages} lineages × ${generations} generations (${points} positions) in ${Math.round(seedMs)} ms`);
  console.error(`drift data (load + compute): ${formatMs(result.driftLoadAndComputeMs)}`);
  console.error(`trivial query baseline:      ${formatMs(result.trivialQueryMs)}`);
  console.log(JSON.stringify(result));
} finally {
  await db.$disconnect();
  await rm(work, { recursive: true, force: true });
}
