// Operational commands: database, sandbox base image, reaper, job queue, and `setup`
// (what `npm run up` runs before starting the services).
import type { Command } from 'commander';
import type { Db } from '../../lib/db/index.ts';
import { seedAccounts, type SeededAccount } from '../../lib/auth/index.ts';
import { migrateDatabase } from '../../lib/db/migrations.ts';
import { enqueueEvolution, findOrCreateLineage } from '../../lib/evolution/index.ts';
import { importPath, readTasksAt } from '../../lib/env/index.ts';
import { JOB_STATES, listJobs, queueDepth, type JobState } from '../../lib/queue/index.ts';
import {
  ensureBaseImage,
  imageInventory,
  ensureToolchainImage,
  TOOLCHAIN_NAMES,
  TOOLCHAIN_REPO,
  TOOLCHAINS,
  type ToolchainName,
  buildMirrorsSetting,
} from '../../lib/sandbox/index.ts';
import { scheduleLineage, schedulerConfigFrom, SIMULATED_POLICY } from '../../lib/scheduler/index.ts';
import { enqueueValidation } from '../../lib/validate/index.ts';
import { openSandbox, withDb } from '../context.ts';
import { emit, fail, notice, progress, shortId, table, type OutputOptions } from '../output.ts';
import { baseImagesFrom, withBaseImageFlags } from '../flags.ts';
import { settings } from '../../lib/config/index.ts';
import { stageLogPath, timeStage } from '../stage-log.ts';

type Opts = OutputOptions & Record<string, unknown>;

export function registerSystemCommands(program: Command): void {
  program
    .command('setup')
    .description('migrate the database, build the base image, import and queue validation of example tasks')
    .option('--examples <dir>', 'a directory of example tasks to import')
    .option('--demo <name>', 'start a demo lineage evolving from the example task of this name')
    .option('--json', 'print one JSON document')
    .action((opts: Opts) => guard(opts, () => setupCommand(opts)));

  const db = program.command('db').description('the database');
  db.command('migrate')
    .option('--json', 'print one JSON document')
    .action((opts: Opts) =>
      guard(opts, async () => {
        const applied = await timeStage(
          stageLogPath(),
          'migrate',
          () => migrateDatabase(),
          (a) => a.length === 0,
        );
        emit(opts, { ok: true, applied }, (a) => (a.applied.length ? `applied ${a.applied.join(', ')}` : 'up to date'));
      }),
    );

  const sandbox = program.command('sandbox').description('the Docker sandbox');
  sandbox
    .command('base')
    .description('build the offline base image if its recipe changed, and print its image ID')
    .option('--json', 'print one JSON document')
    .action((opts: Opts) =>
      guard(opts, async () => {
        const { docker } = await openSandbox();
        const base = await ensureBaseImage({ docker, progress });
        emit(opts, { ok: true, ...base }, (b) => `${b.tag} ${b.imageId}${b.built ? ' (built)' : ''}`);
      }),
    );
  withBaseImageFlags(sandbox.command('images'))
    .argument('<path>', 'a task directory, a directory of tasks, or a Harbor dataset directory')
    .description('the images the tasks build FROM: present or missing here, and the docker save / docker load commands to bring the missing ones')
    .option('--json', 'print one JSON document')
    .action((path: string, opts: Opts) =>
      guard(opts, async () => {
        const { docker } = await openSandbox();
        const inventory = await imageInventory(docker, await readTasksAt(path), baseImagesFrom(opts), buildMirrorsSetting());
        emit(opts, { ok: inventory.images.every((i) => i.present), ...inventory }, (inv) =>
          [
            table([
              ['IMAGE', 'HERE', 'MAPPED TO', 'TASKS'],
              ...inv.images.map((i) => [i.reference, i.present ? 'present' : 'missing', i.mappedTo ?? '–', i.tasks.join(', ')]),
            ]),
            ...(inv.build.length ? ['', 'build here:', ...inv.build.map((c) => `  ${c}`)] : []),
            ...(inv.save ? ['', 'on a machine that can pull them:', `  ${inv.save}`, 'then here:', `  ${inv.load}`] : []),
            ...(inv.mapAfterLoad.length
              ? ['a loaded image loses its repo digest; build the pinned references on the loaded tags with:', ...inv.mapAfterLoad.map((f) => `  ${f}`)]
              : []),
            ...(inv.fetches.length
              ? [
                  '',
                  'their builds download packages (behind a mirror, set the ENVOLVE_BUILD_* mirror settings):',
                  ...inv.fetches.map((f) => `  ${f.task}: ${f.fetches.join(', ')}`),
                ]
              : []),
            ...(inv.skipped.length ? ['', `skipped (no environment/Dockerfile): ${inv.skipped.join(', ')}`] : []),
          ].join('\n'),
        );
      }),
    );
  sandbox
    .command('toolchains')
    .argument('[names...]', `toolchains to build (${TOOLCHAIN_NAMES.join(', ')}); default all`)
    .description(`build offline toolchain bases from Debian packages (${TOOLCHAIN_REPO}:<name>) to map registry images to`)
    .option('--json', 'print one JSON document')
    .action((names: string[], opts: Opts) =>
      guard(opts, async () => {
        const chosen = names.length ? names : TOOLCHAIN_NAMES;
        const unknown = chosen.filter((n) => !TOOLCHAIN_NAMES.includes(n as ToolchainName));
        if (unknown.length) throw new Error(`unknown toolchain(s) ${unknown.join(', ')}: choose from ${TOOLCHAIN_NAMES.join(', ')}`);
        const { docker } = await openSandbox();
        await ensureBaseImage({ docker, progress });
        const built = [];
        for (const name of chosen as ToolchainName[]) {
          progress(`toolchain ${name}: ${TOOLCHAINS[name].join(' ')}`);
          built.push(await ensureToolchainImage(docker, name));
        }
        emit(opts, { ok: true, toolchains: built }, (r) =>
          r.toolchains.map((t) => `${t.toolchainTag} ${t.imageId}${t.cached ? '' : ` (built in ${Math.round(t.durationMs / 1000)} s)`}`).join('\n'),
        );
      }),
    );
  sandbox
    .command('reap')
    .description('remove sandbox containers left behind: budget passed, or the process that made them is gone')
    .option('--json', 'print one JSON document')
    .action((opts: Opts) =>
      guard(opts, async () => {
        const reaped = await (await openSandbox()).reapContainers();
        emit(opts, { ok: true, reaped }, (r) => [`removed ${r.reaped.length} container(s)`, ...r.reaped.map((c) => `  ${c.name} (${c.reason})`)].join('\n'));
      }),
    );

  const jobs = program.command('jobs').description('the job queue');
  jobs
    .command('list')
    .option('--state <state>', `only jobs in this state (${JOB_STATES.join(', ')})`)
    .option('--json', 'print one JSON document')
    .action((opts: Opts) =>
      guard(opts, async () => {
        const state = opts.state as JobState | undefined;
        if (state && !JOB_STATES.includes(state)) throw new Error(`--state must be one of ${JOB_STATES.join(', ')}`);
        const result = await withDb(async (db) => ({ depth: await queueDepth(db), jobs: await listJobs(db, { state }) }));
        emit(opts, result, ({ depth, jobs }) =>
          [
            JOB_STATES.map((s) => `${s} ${depth[s]}`).join('   '),
            table([
              ['ID', 'KIND', 'STATE', 'ATTEMPTS', 'UPDATED', 'LAST ERROR'],
              ...jobs.map((j) => [
                j.id,
                j.kind,
                j.state,
                `${j.attempts}/${j.maxAttempts}`,
                j.updatedAt.toISOString(),
                (j.lastError ?? '').split('\n')[0]!.slice(0, 80),
              ]),
            ]),
          ].join('\n'),
        );
      }),
    );
}

async function guard(opts: Opts, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    fail(opts, err);
  }
}

async function setupCommand(opts: Opts): Promise<void> {
  // Under `npm run up` each slow step is a stage of its log; up runs `envolve db migrate` (its own stage) first.
  const log = stageLogPath();
  const applied = await migrateDatabase();
  if (applied.length) progress(`database: applied ${applied.join(', ')}`);
  const accounts = await withDb((db) =>
    seedAccounts(db, {
      adminEmail: settings().admin.email,
      adminPassword: settings().admin.password,
      demo: Boolean(opts.demo),
    }),
  );
  reportAccounts(accounts);
  const { docker } = await openSandbox();
  const base = await timeStage(
    log,
    'base image',
    () => ensureBaseImage({ docker, progress }),
    (b) => !b.built,
  );
  progress(`base image: ${base.tag} ${shortId(base.imageId)}${base.built ? ' (built)' : ' (cached)'}`);
  const examples = opts.examples
    ? await timeStage(log, 'import', () => withDb((db) => importExamples(db, opts.examples as string)))
    : { imported: [], queued: [] };
  for (const r of examples.imported) progress(`example ${r.name}: ${r.ok ? shortId(r.versionId) : r.errors.join('; ')}`);
  if (examples.queued.length) progress(`queued validation of ${examples.queued.length} example(s) for the workers`);
  const demoSeed = examples.imported.find((r) => r.ok && r.name === opts.demo)?.versionId;
  const demo = demoSeed ? await timeStage(log, 'demo lineage', () => withDb((db) => startDemoLineage(db, demoSeed))) : null;
  if (opts.demo && !demo) progress(`demo: no imported example named ${opts.demo}; no demo lineage started`);
  emit(
    opts,
    { ok: true, migrations: applied, accounts: accounts.map(({ email, role }) => ({ email, role })), baseImage: base, ...examples, demo },
    () => 'setup done',
  );
}

async function importExamples(db: Db, dir: string) {
  const results = await importPath(db, dir);
  const queued: string[] = [];
  for (const r of results) {
    if (!r.ok || !r.versionId) continue;
    const validated = await db.validatorRun.count({ where: { versionId: r.versionId } });
    if (validated > 0) continue;
    // One setup validation per version, however often `npm run up` runs.
    await enqueueValidation(db, r.versionId, { dedupeKey: `setup-validate:${r.versionId}` });
    queued.push(r.versionId);
  }
  return { imported: results.map((r) => ({ name: r.name, ok: r.ok, versionId: r.versionId, errors: r.errors })), queued };
}

// Generated passwords go to stderr only, never into the --json document a script might keep.
function reportAccounts(accounts: SeededAccount[]): void {
  if (accounts.length === 0) {
    notice(`accounts: sign in at http://127.0.0.1:${settings().web.port}/sign-in with the accounts made earlier`);
    notice('  (forgot a password? node bin/envolve.mjs users set-password --email admin@envolve.local)');
  }
  for (const account of accounts) {
    const password = account.generatedPassword ?? 'the password from ENVOLVE_ADMIN_PASSWORD';
    notice(`account: ${account.role} ${account.email}  password: ${password}`);
  }
  if (accounts.some((a) => a.generatedPassword)) {
    notice(`  these generated passwords are shown only now; sign in at http://127.0.0.1:${settings().web.port}/sign-in`);
    notice('  (another account: node bin/envolve.mjs users create --email E --name N --role R)');
  }
}

const DEMO_ACTOR = { id: null, email: 'envolve:demo' };
const DEMO_OVERRIDE_REASON =
  'demo mode: the demo lineage is gated by simulated probes, which cannot reach the seed funnel thresholds; it evolves to show the pipeline, not because the funnel kept its seed';

// The demo: a procedural seed evolving round-robin in the background, 15 generations, once,
// and the scheduler's first probe of its seed (generation 0, the first frontier). It is probed
// by the simulated policy in demo mode, so it moves without a model; everything that policy
// releases is marked as released by it, and the screen says so.
async function startDemoLineage(db: Db, seedVersionId: string): Promise<{ lineageId: string; jobId: string; probeJobId?: string }> {
  const config = schedulerConfigFrom(settings().scheduler);
  const lineage = await findOrCreateLineage(
    db,
    seedVersionId,
    {
      axisPolicy: { kind: 'round-robin' },
      effort: 'low',
      synthesiser: 'procedural',
      seed: 1,
      loops: { maxPlanRounds: 3, maxModifyRounds: 3 },
    },
    { probePolicy: SIMULATED_POLICY, demoMode: true },
    // The simulated policy cannot reach the seed funnel's thresholds: the demo records its own override.
    { config, override: { actor: DEMO_ACTOR, reason: DEMO_OVERRIDE_REASON, demoMode: true } },
  );
  const job = await enqueueEvolution(db, { lineageId: lineage.row.id, generations: 15 }, { dedupeKey: `demo-evolve:${lineage.row.id}` });
  progress(`demo: lineage ${lineage.row.name} evolving in the background (job ${job.id})`);
  progress('demo: DEMO MODE — its generations are released by SIMULATED probes (no model ran them); they are marked released_by simulated.');
  progress(`demo:   to gate it on your trainer's groups: node bin/envolve.mjs lineage gate ${lineage.row.id} --policy trainer --yes`);
  const scheduled = await scheduleLineage(db, lineage.row.id, config);
  return { lineageId: lineage.row.id, jobId: job.id, probeJobId: scheduled.probeJobId };
}
