// Wall time of one probe (8 rollouts of the simulated policy) on a shipped seed at concurrency
// 1, 2 and 4, against one plain `docker run --rm --network none` of the same image measured in
// the same run (the floor of a single container start).
//   npx tsx bench/probe-wall-time.ts [--runs 3] [--task seed-logs-awk] [--levels 1,2,4]
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb } from '../lib/db/index.ts';
import { migrateDatabase } from '../lib/db/migrations.ts';
import { importPath, loadBundle } from '../lib/env/index.ts';
import { DockerSandbox, ensureBaseImage } from '../lib/sandbox/index.ts';
import { policyNamed, probeVersion } from '../lib/scheduler/index.ts';
import { formatMs, summarize, timed } from './stats.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    task: { type: 'string', default: 'seed-logs-awk' },
    levels: { type: 'string', default: '1,2,4' },
  },
});
const runs = Number(values.runs);
const levels = String(values.levels).split(',').map(Number);
const task = String(values.task);

const sandbox = new DockerSandbox();
await ensureBaseImage({ docker: sandbox.docker });
const dir = await mkdtemp(join(tmpdir(), 'envolve-bench-probe-'));
const url = `file:${join(dir, 'bench.db')}`;
await migrateDatabase(url);
const db = createDb(url);
try {
  const [imported] = await importPath(db, join('examples', 'tasks', task));
  if (!imported?.ok || !imported.versionId) throw new Error(`importing ${task} failed: ${JSON.stringify(imported)}`);
  const versionId = imported.versionId;
  const image = await sandbox.buildEnvironmentImage(await loadBundle(db, versionId));

  const baselineSamples: number[] = [];
  for (let i = 0; i < 5; i++) {
    baselineSamples.push(await timed(async () => execFileSync('docker', ['run', '--rm', '--network', 'none', image.imageId, 'true'])));
  }
  const baseline = summarize(baselineSamples);
  console.log(`baseline: docker run --rm --network none (one container): ${formatMs(baseline)}`);

  const policy = policyNamed('simulated');
  for (const concurrency of levels) {
    const samples: number[] = [];
    let passes = 0;
    for (let run = 0; run < runs; run++) {
      samples.push(
        await timed(async () => {
          const probe = await probeVersion({ db, sandbox }, { versionId, policy, size: 8, concurrency, seed: 100 * run });
          if (probe.errors > 0) throw new Error(`probe had ${probe.errors} sandbox errors`);
          passes += probe.passes;
        }),
      );
    }
    const s = summarize(samples);
    console.log(
      `probe of 8 rollouts at concurrency ${concurrency}: ${formatMs(s)} = ${(s.median / baseline.median).toFixed(1)}× one docker run; ` +
        `${((8 * 60_000) / s.median).toFixed(1)} rollouts/min; ${passes}/${8 * runs} passed`,
    );
  }
} finally {
  await db.$disconnect();
  await rm(dir, { recursive: true, force: true });
}
