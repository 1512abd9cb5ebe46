// Wall time of one Envolve validation (oracle + invalid-test in parallel containers) and of one
// oracle trial, against a plain `docker run --rm --network none` of the same image doing the
// same work (solve, then test), measured interleaved in the same run.
//   npx tsx bench/validation-overhead.ts [--runs N] [--task examples/tasks/access-log-report]
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { createDb } from '../lib/db/client.ts';
import { migrateDatabase } from '../lib/db/migrate.ts';
import { writeTaskDir } from '../lib/env/export.ts';
import { readTaskDir } from '../lib/env/read-task-dir.ts';
import { storeBundle } from '../lib/env/store.ts';
import { parseTaskConfig } from '../lib/env/task-config.ts';
import { DockerSandbox, ensureBaseImage } from '../lib/sandbox/index.ts';
import { trialRequest } from '../lib/validate/trial-request.ts';
import { validateEnvironment } from '../lib/validate/validate-environment.ts';
import { formatMs, summarize, timed } from './stats.ts';

const run = promisify(execFile);
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, task: { type: 'string', default: 'examples/tasks/access-log-report' } },
});
const runs = Number(values.runs);

const work = await mkdtemp(join(tmpdir(), 'envolve-bench-'));
const url = `file:${join(work, 'bench.db')}`;
await migrateDatabase(url);
const db = createDb(url);
const sandbox = new DockerSandbox();
await ensureBaseImage({ docker: sandbox.docker });

const { bundle } = await readTaskDir(resolve(values.task!));
const versionId = await storeBundle(db, bundle, { source: 'import' });
const parsed = parseTaskConfig(bundle.files.find((f) => f.path === 'task.toml')!.content.toString('utf8'));
if (!parsed.ok) throw new Error(parsed.error);
const { imageId } = await sandbox.buildEnvironmentImage(bundle);
const taskDir = await writeTaskDir(bundle, join(work, 'task'), null);

const plainDockerRun = () =>
  run('docker', [
    'run', '--rm', '--network', 'none',
    '-v', `${taskDir}/solution:/solution:ro`, '-v', `${taskDir}/tests:/tests:ro`,
    '--user', 'root', imageId, 'bash', '-c',
    'su agent -c "cd /app && bash /solution/solve.sh" && bash /tests/test.sh && cat /logs/verifier/reward.txt',
  ]);
const oracleTrial = () => sandbox.runTrial(trialRequest(bundle, parsed.config, imageId, { kind: 'oracle' }, {}));
const validation = () => validateEnvironment({ db, sandbox, versionId });

// Warm caches (page cache, image layers) before measuring anything.
await plainDockerRun();
await oracleTrial();

const samples = { dockerRun: [] as number[], oracleTrial: [] as number[], validation: [] as number[] };
for (let i = 0; i < runs; i++) {
  samples.dockerRun.push(await timed(plainDockerRun));
  samples.oracleTrial.push(await timed(oracleTrial));
  samples.validation.push(await timed(validation));
  process.stderr.write(`run ${i + 1}/${runs}\n`);
}

const docker = summarize(samples.dockerRun);
const trial = summarize(samples.oracleTrial);
const valid = summarize(samples.validation);
console.log(`task: ${bundle.name} (${versionId.slice(0, 12)}), image ${imageId.slice(7, 19)}`);
console.log(`plain docker run (solve + test)        ${formatMs(docker)}`);
console.log(`envolve oracle trial                   ${formatMs(trial)}  ratio ${(trial.median / docker.median).toFixed(2)}x`);
console.log(`envolve validation (oracle ‖ nop)      ${formatMs(valid)}  ratio ${(valid.median / docker.median).toFixed(2)}x`);

await db.$disconnect();
await rm(work, { recursive: true, force: true });
